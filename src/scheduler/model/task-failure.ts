import type { TaskState } from './task-state';

/**
 * The last task failure of a run spec (Marathon's `TaskFailure`, the `lastTaskFailure` of an app),
 * with Marathon's field names: the task that failed, the state it ended in, the message of the
 * status update (or the reason of a health kill), when, on which agent, and the run spec version
 * the task ran. `slaveId` is left out when the task had no agent.
 */
export interface TaskFailure {
  readonly appId: string;
  readonly host: string;
  readonly message: string;
  readonly state: TaskState;
  readonly taskId: string;
  readonly timestamp: string;
  readonly version: string;
  readonly slaveId?: string;
}

/**
 * Task states recorded as a failure (Marathon's `TaskFailure` records these, not TASK_FINISHED or
 * TASK_KILLED): the task ended for a reason its run spec did not ask for.
 */
export const FAILURE_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_FAILED', 'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR', 'TASK_UNKNOWN',
]);
