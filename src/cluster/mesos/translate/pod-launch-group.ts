import type { LaunchOperation, TaskLaunch } from '../../../scheduler/model/launch';
import type { PodSpec } from '../../../scheduler/model/run-spec';
import type { CommandInfo, ExecutorInfo, OfferOperation, Resource, TaskInfo } from '../codec/mesos-model';
import { agentCheckPort } from './agent-check-port';
import { discoveryOf } from './discovery-to-mesos';
import { fetchUris } from './fetch-uris';
import { healthCheckToMesos } from './health-check-to-mesos';
import { killPolicyOf } from './kill-policy';
import { labelsToMesos } from './labels-to-mesos';
import { mesosTaskEnv } from './mesos-task-env';
import type { OfferResourceLedger } from './offer-resource-ledger';
import { podContainerWire, podExecutorContainer, podTaskContainer } from './pod-container-info';
import { splitAllocation } from './split-allocation';
import { stringMapOf, stringOf } from './wire-read';

type LaunchGroup = Extract<LaunchOperation, { kind: 'launchGroup' }>;

/**
 * The LAUNCH_GROUP of one pod instance (mesos-v1-scheduler-api.md §5.3, §5.4): a DEFAULT
 * executor and one task per container, delivered atomically to one agent.
 *
 * - Executor: `type: DEFAULT`, `executor_id` = the core's executor id (unique per instance),
 *   `framework_id` set (the master does not fill it for LAUNCH_GROUP, §5.3), `resources` = the
 *   pod's `executorResources` (spec 2.1.4: 0.1 cpus, 32 MiB, 10 MiB disk by default), its
 *   `container` carrying the pod networks (pod-container-info.ts), `labels` = the pod's labels.
 * - Tasks: `name` = the container name, `command` (the `exec.command.shell` through the shell;
 *   without one, no shell and no value: the image's entrypoint), environment, artifacts,
 *   `user`, `container`, agent-run `health_check`, `kill_policy` from
 *   `lifecycle.killGracePeriodSeconds`, the container's labels and endpoints as `discovery`.
 *
 * The allocation is split between the executor and the tasks (split-allocation.ts) and each
 * share is turned into offered resources by `ledger`.
 */
export function podLaunchGroup(op: LaunchGroup, frameworkId: string, ledger: OfferResourceLedger): OfferOperation {
  const first = op.tasks[0];
  if (first === undefined || first.spec.kind !== 'pod') throw new Error(`launch group ${op.executorId}: no pod tasks`);
  const spec = first.spec;
  const consumers = [{ resources: op.executorResources, hostPorts: [] }, ...op.tasks];
  const [executorShare, ...taskShares] = splitAllocation(op.allocation, consumers).map((pools) => ledger.take(pools));
  const executor = executorInfo(op, spec, frameworkId, executorShare);
  const tasks = op.tasks.map((task, i) => podTaskInfo(task, spec, op.tasks, taskShares[i]));
  return { type: 'LAUNCH_GROUP', launchGroup: { executor, taskGroup: { tasks } } };
}

function executorInfo(op: LaunchGroup, spec: PodSpec, frameworkId: string, resources: Resource[]): ExecutorInfo {
  const container = podExecutorContainer(spec, op.tasks);
  const labels = labelsToMesos(spec.labels);
  return {
    type: 'DEFAULT',
    executorId: { value: op.executorId },
    frameworkId: { value: frameworkId },
    resources,
    ...(container === undefined ? {} : { container }),
    ...(labels === undefined ? {} : { labels }),
  };
}

function podTaskInfo(launch: TaskLaunch, spec: PodSpec, group: readonly TaskLaunch[], resources: Resource[]): TaskInfo {
  const wire = podContainerWire(spec, launch.containerName);
  const container = podTaskContainer(launch, spec);
  const healthCheck = launch.healthCheck === undefined ? undefined : healthCheckToMesos(launch.healthCheck.check, agentCheckPort(launch));
  const labels = labelsToMesos(stringMapOf(wire?.labels));
  return {
    name: launch.containerName ?? launch.taskId,
    taskId: { value: launch.taskId },
    agentId: { value: launch.agentId },
    resources,
    command: podCommand(launch, spec, group, wire),
    ...(container === undefined ? {} : { container }),
    ...(healthCheck === undefined ? {} : { healthCheck }),
    killPolicy: killPolicyOf(launch.killGracePeriodMs),
    ...(labels === undefined ? {} : { labels }),
    discovery: discoveryOf(launch),
  };
}

function podCommand(launch: TaskLaunch, spec: PodSpec, group: readonly TaskLaunch[], wire: Readonly<Record<string, unknown>> | undefined): CommandInfo {
  const shell = spec.containers.find((c) => c.name === launch.containerName)?.command;
  const uris = fetchUris(wire?.artifacts);
  const user = stringOf(wire?.user) ?? stringOf(spec.definition.user);
  const base: CommandInfo = {
    environment: mesosTaskEnv(launch, group),
    ...(uris.length > 0 ? { uris } : {}),
    ...(user === undefined ? {} : { user }),
  };
  return shell === undefined || shell === '' ? { ...base, shell: false } : { ...base, shell: true, value: shell };
}
