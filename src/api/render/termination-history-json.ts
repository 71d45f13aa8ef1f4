import { isoTime } from '../../scheduler/index';
import type { Instance } from '../../scheduler/model/instance';
import type { TaskFailure } from '../../scheduler/model/task-failure';
import type { TaskState } from '../../scheduler/model/task-state';

/**
 * A pod status's `terminationHistory` (fact 81), by Marathon's rule (AppInfoBaseData.podStatus,
 * 1.11): at most one entry, made from the pod's last task failure, and only while one of the pod's
 * instances still holds the failed task — in pacer, while the other containers of that pod
 * instance are killed after it; once the instance is relaunched its tasks are new and the list is
 * empty again, as in Marathon. The entry: `instanceID`, `startedAt` (the task's start, or its
 * launch when it never ran, as Marathon falls back to `stagedAt`), `terminatedAt` (the failure's
 * time), `message`, and one container `{containerId, lastKnownState}` with Marathon's name of the
 * state ({@link lastKnownState}).
 */
export function terminationHistoryJson(failure: TaskFailure | undefined, instances: readonly Instance[]): Record<string, unknown>[] {
  if (failure === undefined) return [];
  for (const inst of instances) {
    const task = inst.peekTasks().find((t) => t.taskId === failure.taskId);
    if (task === undefined) continue;
    return [{
      instanceID: inst.instanceId,
      startedAt: isoTime(task.startedAtMs ?? task.launchedAtMs),
      terminatedAt: failure.timestamp,
      message: failure.message,
      containers: [{ containerId: task.taskId, lastKnownState: lastKnownState(failure.state) }],
    }];
  }
  return [];
}

/**
 * Marathon's name of a task state in a termination history: the Scala case object its
 * `taskStateToCaseClass` gives (`TaskFailed`, `TaskKilled`, …), `TaskError` for every state that
 * mapping does not name (TASK_DROPPED, TASK_GONE, TASK_GONE_BY_OPERATOR, TASK_UNKNOWN,
 * TASK_UNREACHABLE).
 */
export function lastKnownState(state: TaskState): string {
  return CASE_OBJECT_NAMES[state] ?? 'TaskError';
}

const CASE_OBJECT_NAMES: Partial<Record<TaskState, string>> = {
  TASK_FAILED: 'TaskFailed', TASK_FINISHED: 'TaskFinished', TASK_KILLED: 'TaskKilled', TASK_LOST: 'TaskLost',
  TASK_RUNNING: 'TaskRunning', TASK_KILLING: 'TaskKilling', TASK_STAGING: 'TaskStaging', TASK_STARTING: 'TaskStarting',
  TASK_ERROR: 'TaskError',
};
