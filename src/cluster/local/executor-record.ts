import type { CheckStatus } from '../../scheduler/model/checks';
import type { LaunchCheck, ResolvedAgentCheck } from '../../scheduler/model/launch';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { ScalarResources } from '../../scheduler/model/resources';
import type { TaskState } from '../../scheduler/model/task-state';

/** One launched task as recorded for restart survival. */
export interface TaskRecord {
  readonly taskId: string;
  readonly runSpecId: string;
  readonly instanceId: string;
  readonly containerName?: string;
  /** Process id (= process group and session id: tasks lead their own); undefined until started. */
  pid?: number;
  /** /proc start time of `pid`, to tell the task from a process that recycled its pid. */
  startTime?: string;
  readonly sandbox: string;
  readonly hostPorts: readonly number[];
  readonly resources: ScalarResources;
  readonly killGracePeriodMs: number;
  readonly launchedAtMs: number;
  readonly healthCheck?: ResolvedAgentCheck;
  /** The task's environment (command health checks run with it). */
  readonly env: Readonly<Record<string, string>>;
  /** Latest state on the agent. */
  state: TaskState;
  healthy?: boolean;
  /** The task's `check` (Marathon's generalized check), as the core resolved it; run by the executor (check-runner.ts). */
  readonly check?: LaunchCheck;
  /** The check status last reported (a restarted checker reports only a change from it; reconciliation answers it). */
  checkStatus?: CheckStatus;
}

/** One executor: a single task (LAUNCH) or a task group (LAUNCH_GROUP), with its allocation. */
export interface ExecutorRecord {
  /** Unique key (its first task id): Marathon reuses executor ids across relaunches of an instance. */
  readonly executorKey: string;
  readonly executorId: string;
  readonly agentId: string;
  readonly group: boolean;
  readonly allocation: readonly OfferedPool[];
  /** Set while a kill runs: when SIGKILL follows the SIGTERM. */
  killDeadlineMs?: number;
  readonly tasks: TaskRecord[];
}
