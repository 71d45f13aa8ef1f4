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

/**
 * Bounds of a stored task failure's texts, in characters (its `state` is one of the task states; store format 7: the record's schema,
 * src/store/records/stored-task-failure.ts, refuses more; docs/limits.md). `message` and `host`
 * are cut to theirs when the failure is recorded (a status message is free text from the agent);
 * a failure whose ids or times exceed theirs is kept in memory only, never stored.
 */
export const TASK_FAILURE_BOUNDS = {
  appId: 1_024, taskId: 1_024, slaveId: 1_024, host: 1_024, message: 4_096, version: 64, timestamp: 64,
} as const satisfies { readonly [K in Exclude<keyof TaskFailure, 'state'>]-?: number };

/** `text` cut to `maxChars` UTF-16 code units, never inside a surrogate pair. */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const end = text.charCodeAt(maxChars - 1) >= 0xd800 && text.charCodeAt(maxChars - 1) <= 0xdbff ? maxChars - 1 : maxChars;
  return text.slice(0, end);
}

/** Whether every field of `failure` is within {@link TASK_FAILURE_BOUNDS} (checked before it is stored). */
export function taskFailureFits(failure: TaskFailure): boolean {
  for (const field of Object.keys(TASK_FAILURE_BOUNDS) as (keyof typeof TASK_FAILURE_BOUNDS)[]) {
    const value = failure[field];
    if (value !== undefined && value.length > TASK_FAILURE_BOUNDS[field]) return false;
  }
  return true;
}
