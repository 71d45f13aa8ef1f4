import type { MasterTimerEvent } from '../../src/master/master-ports';

/**
 * Events the simulated cluster schedules for itself through `SimContext.schedule` and handles in
 * `SimCluster.onEvent`. Plain JSON data (ids, no object references) so the runner can trace them.
 * The master model's timer events ({@link MasterTimerEvent}) are handed back to it:
 *
 * - `offerCycle`: the master's allocation round (every `offerIntervalMs`, only while some agent
 *   may be offered).
 * - `filterExpired`: the refuse filter on an agent's resources has run out.
 * - `launchStep`: the next launch step of an executor (its task, or its whole task group):
 *   STAGING → STARTING → RUNNING.
 * - `taskExit`: a task ends by itself (the run spec's task model: `exitAfter`, `failToStart`).
 * - `killDone`: the tasks of an executor being killed are gone (they exited or SIGKILL came).
 * - `healthCheck`: the executor runs a task's agent-run health check.
 * - `check`: the executor reports the result of a task's `check` (Marathon's generalized check).
 * - `agentUnreachable`: a disconnected agent missed its pings; the master marks it unreachable.
 * - `agentRemoved`: a dead agent is removed from the cluster for good.
 */
export type SimEvent =
  | MasterTimerEvent
  | { readonly kind: 'launchStep'; readonly executorNo: number }
  | { readonly kind: 'taskExit'; readonly taskId: string }
  | { readonly kind: 'killDone'; readonly executorNo: number }
  | { readonly kind: 'healthCheck'; readonly taskId: string }
  | { readonly kind: 'check'; readonly taskId: string };

/** The closed set of {@link SimEvent} kinds. */
export type SimEventKind = SimEvent['kind'];
