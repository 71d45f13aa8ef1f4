import type { Condition } from '../../scheduler/model/condition';

/** Conditions Marathon counts as active (its `Condition.Active` set: a task exists or is starting). */
const ACTIVE: ReadonlySet<Condition> = new Set<Condition>(['Provisioned', 'Staging', 'Starting', 'Running', 'Killing', 'Unreachable']);

/**
 * Whether a task in `condition` is active in Marathon's sense: the task JSON then carries
 * `stagedAt`/`version`/`ports` (fact 40), and the kill endpoints have a task to kill.
 */
export function isActiveCondition(condition: Condition): boolean {
  return ACTIVE.has(condition);
}
