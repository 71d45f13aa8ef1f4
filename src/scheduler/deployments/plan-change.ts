import { sameConfig } from '../model/same-config';
import { assert } from '../kernel/assert';
import type { RunSpec } from '../model/run-spec';

/**
 * What a plan does to a run spec that exists in the target root: `new` (start at 0, then scale
 * in its dependency layer), `scale`, `restart`, or `none`.
 */
export type PlanChange = 'new' | 'scale' | 'restart' | 'none';

/**
 * Marathon's classification (`DeploymentPlan.dependencyOrderedSteps` with
 * `RunSpec.isOnlyScaleChange` / `needsRestart` / `isScaledToZero`):
 *
 * 1. no original → `new`;
 * 2. same definition apart from scaling, same instance count and same
 *    `versionInfo.lastConfigChangeAt` → `none` (nothing changed);
 * 3. a scale-only change (same definition, different instance count — Marathon's
 *    `isOnlyScaleChange` ignores version stamps), **or any change that leaves the target at 0
 *    instances** → `scale`;
 * 4. anything else — a different definition (command, resources, labels, upgradeStrategy,
 *    killSelection, …) or a new `lastConfigChangeAt` with the same definition (the `/restart`
 *    case) → `restart`.
 *
 * An app never becomes a pod under the same id (validation rejects it; Marathon throws too).
 */
export function planChange(original: RunSpec | undefined, target: RunSpec): PlanChange {
  if (original === undefined) return 'new';
  if (original.kind !== target.kind) assert(false, `run spec ${target.id} cannot change from ${original.kind} to ${target.kind}`);
  const configSame = sameConfig(original, target);
  const restarted = original.versionInfo.lastConfigChangeAt !== target.versionInfo.lastConfigChangeAt;
  const scaled = original.instances !== target.instances;
  if (configSame && !restarted && !scaled) return 'none';
  if ((configSame && scaled) || target.instances === 0) return 'scale';
  return 'restart';
}
