import type { Constraint } from '../../scheduler/model/constraint';
import type { UnreachablePolicy, UpgradePolicy } from '../../scheduler/model/run-spec';
import { seconds } from './json-helpers';

/** `upgradeStrategy` (apps) / `scheduling.upgrade` (pods). */
export function upgradeJson(u: UpgradePolicy): { minimumHealthCapacity: number; maximumOverCapacity: number } {
  return { minimumHealthCapacity: u.minimumHealthCapacity, maximumOverCapacity: u.maximumOverCapacity };
}

/** `unreachableStrategy`: `"disabled"` or the two timeouts in whole seconds. */
export function unreachableJson(u: UnreachablePolicy): 'disabled' | { inactiveAfterSeconds: number; expungeAfterSeconds: number } {
  if (u.kind === 'disabled') return 'disabled';
  return { inactiveAfterSeconds: seconds(u.inactiveAfterMs), expungeAfterSeconds: seconds(u.expungeAfterMs) };
}

/** An app constraint: `[field, operator]` or `[field, operator, value]` (Marathon's `AppConstraint`). */
export function appConstraintJson(c: Constraint): string[] {
  return c.value === undefined ? [c.field, c.operator] : [c.field, c.operator, c.value];
}

/** A pod constraint: `{fieldName, operator, value?}` (Marathon's `Constraint`). */
export function podConstraintJson(c: Constraint): { fieldName: string; operator: string; value?: string } {
  return c.value === undefined ? { fieldName: c.field, operator: c.operator } : { fieldName: c.field, operator: c.operator, value: c.value };
}
