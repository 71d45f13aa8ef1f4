/** The full Mesos task state set. `TASK_KILLING` is not terminal (spec/README resolves the spec's ambiguity). */
export type TaskState =
  | 'TASK_STAGING'
  | 'TASK_STARTING'
  | 'TASK_RUNNING'
  | 'TASK_KILLING'
  | 'TASK_FINISHED'
  | 'TASK_FAILED'
  | 'TASK_KILLED'
  | 'TASK_ERROR'
  | 'TASK_LOST'
  | 'TASK_DROPPED'
  | 'TASK_UNREACHABLE'
  | 'TASK_GONE'
  | 'TASK_GONE_BY_OPERATOR'
  | 'TASK_UNKNOWN';

export const TASK_STATES: readonly TaskState[] = [
  'TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING', 'TASK_FINISHED', 'TASK_FAILED',
  'TASK_KILLED', 'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_UNREACHABLE', 'TASK_GONE',
  'TASK_GONE_BY_OPERATOR', 'TASK_UNKNOWN',
];

const TERMINAL = new Set<TaskState>([
  'TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED', 'TASK_LOST', 'TASK_ERROR', 'TASK_DROPPED', 'TASK_GONE',
  'TASK_GONE_BY_OPERATOR',
]);

/** Terminal task states as listed in shared/spec/README.md. */
export function isTerminalTaskState(state: TaskState): boolean {
  return TERMINAL.has(state);
}
