import type { TaskState } from './task-state';

/**
 * Instance conditions (spec section 3, plus Marathon 1.11's `Scheduled` and `Provisioned` for
 * instances waiting for an offer and instances whose launch was sent).
 */
export type Condition =
  | 'Scheduled'
  | 'Provisioned'
  | 'Staging'
  | 'Starting'
  | 'Running'
  | 'Killing'
  | 'Killed'
  | 'Finished'
  | 'Failed'
  | 'Error'
  | 'Unreachable'
  | 'UnreachableInactive'
  | 'Gone'
  | 'Dropped'
  | 'Unknown';

export const CONDITIONS: readonly Condition[] = [
  'Scheduled', 'Provisioned', 'Staging', 'Starting', 'Running', 'Killing', 'Killed', 'Finished', 'Failed',
  'Error', 'Unreachable', 'UnreachableInactive', 'Gone', 'Dropped', 'Unknown',
];

/** A terminal condition: the instance's task(s) will not run again under this incarnation. */
export function isTerminalCondition(condition: Condition): boolean {
  // A switch over the constant strings rather than a Set look-up: asked several times for every
  // change of every instance (setCondition, isActive, isPlaced).
  switch (condition) {
    case 'Killed':
    case 'Finished':
    case 'Failed':
    case 'Error':
    case 'Gone':
    case 'Dropped':
    case 'Unknown':
      return true;
    default:
      return false;
  }
}

/**
 * Mesos reasons after which a TASK_LOST task cannot come back; any other TASK_LOST is treated as
 * unreachable (Marathon infers the condition of TASK_LOST from the reason the same way).
 */
const WONT_COME_BACK = new Set([
  'REASON_AGENT_REMOVED_BY_OPERATOR', 'REASON_CONTAINER_LAUNCH_FAILED', 'REASON_CONTAINER_PREEMPTED',
  'REASON_CONTAINER_UPDATE_FAILED', 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT', 'REASON_GC_ERROR',
  'REASON_INVALID_OFFERS', 'REASON_RESOURCES_UNKNOWN', 'REASON_TASK_KILLED_DURING_LAUNCH',
]);

/**
 * An instance whose agent is cut off: it still counts (it may come back), but nothing of it runs
 * where pacer can see it.
 */
export function isUnreachableCondition(condition: Condition): boolean {
  return condition === 'Unreachable' || condition === 'UnreachableInactive';
}

/** The condition a task is in, given its state (and, for TASK_LOST, the reason). */
export function conditionOfTaskState(state: TaskState, reason?: string): Condition {
  switch (state) {
    case 'TASK_STAGING': return 'Staging';
    case 'TASK_STARTING': return 'Starting';
    case 'TASK_RUNNING': return 'Running';
    case 'TASK_KILLING': return 'Killing';
    case 'TASK_FINISHED': return 'Finished';
    case 'TASK_FAILED': return 'Failed';
    case 'TASK_KILLED': return 'Killed';
    case 'TASK_ERROR': return 'Error';
    case 'TASK_DROPPED': return 'Dropped';
    case 'TASK_UNREACHABLE': return 'Unreachable';
    case 'TASK_GONE': return 'Gone';
    case 'TASK_GONE_BY_OPERATOR': return 'Gone';
    case 'TASK_UNKNOWN': return 'Unknown';
    case 'TASK_LOST': return reason !== undefined && WONT_COME_BACK.has(reason) ? 'Gone' : 'Unreachable';
  }
}

/**
 * The condition of a multi-task (pod) instance: the most significant condition among its tasks.
 * Order, most significant first, follows Marathon's instance state derivation.
 */
const POD_PRIORITY: readonly Condition[] = [
  'Error', 'Failed', 'Gone', 'Dropped', 'Unreachable', 'Killing', 'Starting', 'Staging', 'Provisioned', 'Unknown',
  'Killed', 'Finished', 'Running',
];

/**
 * A pod instance is terminal only once every task is: while some tasks have ended and others
 * still run, the executor is tearing the group down (spec rule 10), reported as Killing.
 */
export function combineTaskConditions(conditions: readonly Condition[]): Condition {
  if (conditions.length === 1) return conditions[0];
  const terminal = conditions.filter(isTerminalCondition).length;
  if (terminal > 0 && terminal < conditions.length) {
    return conditions.some((c) => c === 'Unreachable') ? 'Unreachable' : 'Killing';
  }
  for (const candidate of POD_PRIORITY) {
    if (conditions.includes(candidate)) return candidate;
  }
  return conditions[0];
}

/** Conditions Marathon counts as active (its `Condition.Active` set: a task exists or is starting). */
const ACTIVE: ReadonlySet<Condition> = new Set<Condition>(['Provisioned', 'Staging', 'Starting', 'Running', 'Killing', 'Unreachable']);

/**
 * Whether a task in `condition` is active in Marathon's sense: the task JSON then carries
 * `stagedAt`/`version`/`ports` (fact 40), the kill endpoints have a task to kill, and a
 * kill-and-scale may count it (commands/kill-instances.ts). A Scheduled instance is not active.
 */
export function isActiveCondition(condition: Condition): boolean {
  return ACTIVE.has(condition);
}
