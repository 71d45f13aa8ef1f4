import type { TaskState } from '../../scheduler/model/task-state';

/** How a task process ended, as its terminal update reports it. */
export interface TaskExit {
  readonly state: Extract<TaskState, 'TASK_FINISHED' | 'TASK_FAILED' | 'TASK_KILLED'>;
  readonly message: string;
}

/**
 * The terminal state of a task whose process ended (the command executor's rule): while a kill
 * runs, TASK_KILLED whatever the exit; otherwise exit status 0 → TASK_FINISHED, any other status
 * or a signal → TASK_FAILED. `code` and `signal` both null: the status is unknown (a process
 * adopted after a restart is not our child, so nobody tells us how it ended).
 */
export function taskExit(code: number | null, signal: string | null, killing: boolean): TaskExit {
  const message = code !== null
    ? `Command exited with status ${code}`
    : signal !== null
      ? `Command terminated with signal ${signal}`
      : 'Command exited; its exit status is unknown (the process was adopted after a restart)';
  if (killing) return { state: 'TASK_KILLED', message };
  return { state: code === 0 ? 'TASK_FINISHED' : 'TASK_FAILED', message };
}
