import type { MarathonEvent } from '../../scheduler/model/events';
import type { TaskState } from '../../scheduler/model/task-state';
import type { Scheduler } from '../../scheduler/scheduler';

/** Marathon's `TaskFailure` (`lastTaskFailure` of an app, RAML `task.TaskFailure`). */
export interface TaskFailureJson {
  readonly appId: string;
  readonly host: string;
  readonly message: string;
  readonly state: string;
  readonly taskId: string;
  readonly timestamp: string;
  readonly version: string;
  readonly slaveId?: string;
}

/** Task states Marathon records as a failure (its `TaskFailure.isFailureState`). */
const FAILURE_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_FAILED', 'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR', 'TASK_UNKNOWN',
]);

const failuresByScheduler = new WeakMap<Scheduler, Map<string, TaskFailureJson>>();

/**
 * Starts recording the last task failure of every app from the core's events (idempotent per
 * scheduler): a status update in a failure state, or a kill for failing health checks, as
 * Marathon's task failure repository records them. The record of an app is dropped once the app
 * has terminated. Call once when the API is built, so failures before the first query are kept.
 */
export function trackTaskFailures(scheduler: Scheduler): void {
  if (failuresByScheduler.has(scheduler)) return;
  const failures = new Map<string, TaskFailureJson>();
  failuresByScheduler.set(scheduler, failures);
  scheduler.subscribe((event) => record(failures, event));
}

/** The last recorded task failure of `appId` (undefined when none, or when not tracked). */
export function lastTaskFailure(scheduler: Scheduler, appId: string): TaskFailureJson | undefined {
  return failuresByScheduler.get(scheduler)?.get(appId);
}

function record(failures: Map<string, TaskFailureJson>, event: MarathonEvent): void {
  switch (event.eventType) {
    case 'status_update_event':
      if (!FAILURE_STATES.has(event.taskStatus)) return;
      failures.set(event.appId, failure(event.appId, event.host, event.message, event.taskStatus,
        event.taskId, event.timestamp, event.version, event.slaveId));
      return;
    case 'unhealthy_instance_kill_event':
      failures.set(event.appId, failure(event.appId, event.host, event.reason, 'TASK_KILLED',
        event.taskId, event.timestamp, event.version, event.slaveId));
      return;
    case 'app_terminated_event':
      failures.delete(event.appId);
      return;
    default:
      return;
  }
}

function failure(
  appId: string, host: string, message: string, state: string, taskId: string, timestamp: string, version: string,
  slaveId: string,
): TaskFailureJson {
  return { appId, host, message, state, taskId, timestamp, version, ...(slaveId !== '' ? { slaveId } : {}) };
}
