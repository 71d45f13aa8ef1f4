import type { CheckStatus } from '../../scheduler/model/checks';
import type { HealthCheckSpec } from '../../scheduler/model/health-check';
import type { LaunchCheck } from '../../scheduler/model/launch';
import { storedExecutor } from '../../generated/record-validators';
import { defined, recordCheck } from '../../store/records/record-schema';
import { poolCopy, type StoredPoolV1, type StoredResourcesV1 } from '../../store/records/stored-instance';
import type { ExecutorRecord, TaskRecord } from './executor-record';

/**
 * How the local cluster's state file stores one executor (format 1 of `local-cluster.json` and its
 * journal): a plain type of its own, mapped by hand from and to the live {@link ExecutorRecord},
 * checked against `STORED_EXECUTOR_SCHEMA` (stored-executor-schema.ts) when the file is read (a
 * record that fails is set aside, never fatal: issue 11).
 * The health check's definition is the run spec model's (stored as its JSON, checked as an object);
 * a task's `check` is stored as the core resolved it, with the check status last reported.
 */
export interface StoredExecutorV1 {
  readonly executorKey: string;
  readonly executorId: string;
  readonly agentId: string;
  readonly group: boolean;
  readonly allocation: readonly StoredPoolV1[];
  readonly killDeadlineMs?: number;
  readonly tasks: readonly StoredLocalTaskV1[];
}

/** One task of a stored executor: what supervising and re-adopting its process needs. */
export interface StoredLocalTaskV1 {
  readonly taskId: string;
  readonly runSpecId: string;
  readonly instanceId: string;
  readonly containerName?: string;
  readonly pid?: number;
  readonly startTime?: string;
  readonly sandbox: string;
  readonly hostPorts: readonly number[];
  readonly resources: StoredResourcesV1;
  readonly killGracePeriodMs: number;
  readonly launchedAtMs: number;
  readonly healthCheck?: { readonly check: object; readonly port?: number };
  readonly env: Readonly<Record<string, string>>;
  readonly state: TaskRecord['state'];
  readonly healthy?: boolean;
  /** The task's resolved `check` (`LaunchCheck`), and the check status last reported. */
  readonly check?: LaunchCheck;
  readonly checkStatus?: CheckStatus;
}

/** The stored form of `e` (a fresh copy). */
export function executorToStored(e: ExecutorRecord): StoredExecutorV1 {
  return {
    executorKey: e.executorKey, executorId: e.executorId, agentId: e.agentId, group: e.group,
    allocation: e.allocation.map(poolCopy),
    ...defined('killDeadlineMs', e.killDeadlineMs),
    tasks: e.tasks.map(taskToStored),
  };
}

/** The live record of a stored executor that passed {@link storedExecutorProblem}. */
export function executorFromStored(s: StoredExecutorV1): ExecutorRecord {
  return {
    executorKey: s.executorKey, executorId: s.executorId, agentId: s.agentId, group: s.group,
    allocation: s.allocation.map(poolCopy),
    ...defined('killDeadlineMs', s.killDeadlineMs),
    tasks: s.tasks.map(taskFromStored),
  };
}

function taskToStored(t: TaskRecord): StoredLocalTaskV1 {
  return {
    taskId: t.taskId, runSpecId: t.runSpecId, instanceId: t.instanceId, ...defined('containerName', t.containerName),
    ...defined('pid', t.pid), ...defined('startTime', t.startTime), sandbox: t.sandbox, hostPorts: [...t.hostPorts],
    resources: { cpusMilli: t.resources.cpusMilli, memMilli: t.resources.memMilli, diskMilli: t.resources.diskMilli, gpus: t.resources.gpus },
    killGracePeriodMs: t.killGracePeriodMs, launchedAtMs: t.launchedAtMs,
    ...defined('healthCheck', t.healthCheck === undefined ? undefined : { check: t.healthCheck.check, ...defined('port', t.healthCheck.port) }),
    env: { ...t.env }, state: t.state, ...defined('healthy', t.healthy),
    ...defined('check', t.check), ...defined('checkStatus', t.checkStatus),
  };
}

function taskFromStored(t: StoredLocalTaskV1): TaskRecord {
  return {
    taskId: t.taskId, runSpecId: t.runSpecId, instanceId: t.instanceId, ...defined('containerName', t.containerName),
    ...defined('pid', t.pid), ...defined('startTime', t.startTime), sandbox: t.sandbox, hostPorts: [...t.hostPorts],
    resources: { cpusMilli: t.resources.cpusMilli, memMilli: t.resources.memMilli, diskMilli: t.resources.diskMilli, gpus: t.resources.gpus },
    killGracePeriodMs: t.killGracePeriodMs, launchedAtMs: t.launchedAtMs,
    ...defined('healthCheck', t.healthCheck === undefined ? undefined : { check: t.healthCheck.check as HealthCheckSpec, ...defined('port', t.healthCheck.port) }),
    env: { ...t.env }, state: t.state, ...defined('healthy', t.healthy),
    ...defined('check', t.check), ...defined('checkStatus', t.checkStatus),
  };
}

/** Why a stored executor cannot be used, or undefined (closed schema, `STORED_EXECUTOR_SCHEMA`: an unknown or missing field fails). */
export const storedExecutorProblem = recordCheck('StoredExecutorV1', storedExecutor);
