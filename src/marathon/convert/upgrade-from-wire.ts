import type { UpgradePolicy } from '../../scheduler/model/run-spec';
import type { WireObject } from './wire-object';

/** Default of non-resident run specs: keep all healthy, allow doubling during an upgrade. */
export const DEFAULT_UPGRADE: UpgradePolicy = { minimumHealthCapacity: 1, maximumOverCapacity: 1 };

/** Default of resident run specs (persistent volumes): reservations cannot be doubled. */
export const RESIDENT_UPGRADE: UpgradePolicy = { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 };

/**
 * Reads the upgrade strategy at `holder[key]` (`upgradeStrategy` of apps, `scheduling.upgrade` of
 * pods). Each value lies in [0, 1]; a missing value comes from `defaults` ({@link DEFAULT_UPGRADE},
 * or {@link RESIDENT_UPGRADE} for run specs with persistent or external volumes). Resident run specs
 * must keep `maximumOverCapacity` at 0.
 */
export function upgradeFromWire(
  holder: WireObject | undefined,
  key: string,
  defaults: UpgradePolicy,
  resident: boolean,
): UpgradePolicy {
  const obj = holder?.child(key);
  const rule = { min: 0, max: 1 };
  const minimumHealthCapacity = obj?.number('minimumHealthCapacity', defaults.minimumHealthCapacity, rule)
    ?? defaults.minimumHealthCapacity;
  const maximumOverCapacity = obj?.number('maximumOverCapacity', defaults.maximumOverCapacity, rule)
    ?? defaults.maximumOverCapacity;
  if (resident && maximumOverCapacity !== 0) {
    obj?.fail('maximumOverCapacity', 'maximumOverCapacity must be 0 for run specs with persistent volumes');
  }
  return { minimumHealthCapacity, maximumOverCapacity };
}
