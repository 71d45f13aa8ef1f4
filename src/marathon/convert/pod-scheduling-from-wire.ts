import type { Constraint } from '../../scheduler/model/constraint';
import type { BackoffPolicy, KillSelection, UnreachablePolicy, UpgradePolicy } from '../../scheduler/model/run-spec';
import { constraintsFromWire } from './constraints-from-wire';
import { killSelectionFromWire } from './kill-selection-from-wire';
import { POD_UNREACHABLE_DEFAULT, unreachableFromWire } from './unreachable-from-wire';
import { DEFAULT_UPGRADE, RESIDENT_UPGRADE, upgradeFromWire } from './upgrade-from-wire';
import type { WireObject } from './wire-object';

type BackoffSeconds = typeof POD_BACKOFF_DEFAULT;

/** Pod backoff defaults (spec 2.3): 1 s, ×1.15, at most 3600 s. */
export const POD_BACKOFF_DEFAULT = { backoff: 1, backoffFactor: 1.15, maxLaunchDelay: 3600 };

/** A pod's `scheduling` block, normalized. */
export interface ConvertedPodScheduling {
  readonly backoff: BackoffPolicy;
  readonly upgrade: UpgradePolicy;
  readonly unreachable: UnreachablePolicy;
  readonly killSelection: KillSelection;
  readonly constraints: readonly Constraint[];
}

/**
 * Reads `pod.scheduling` (spec 2.3, defaults as resolved in spec/README.md): backoff
 * `{1, 1.15, 3600}`, upgrade `{1, 1}` (resident `{0.5, 0}`), unreachable `{900, 604800}` (resident
 * `"disabled"`), kill selection `YOUNGEST_FIRST`, placement constraints. Accepted roles are resolved
 * with the role (see role-rules).
 */
export function podSchedulingFromWire(pod: WireObject, resident: boolean): ConvertedPodScheduling {
  const scheduling = pod.child('scheduling');
  const backoffObj = scheduling?.child('backoff');
  const placement = scheduling?.child('placement');
  const seconds = backoffSecondsOf(backoffObj);
  const upgrade = upgradeFromWire(scheduling, 'upgrade', resident ? RESIDENT_UPGRADE : DEFAULT_UPGRADE, resident);
  const unreachable = unreachableFromWire(scheduling, 'unreachableStrategy', POD_UNREACHABLE_DEFAULT, resident ? 'pods' : undefined);
  const killSelection = killSelectionFromWire(scheduling, 'killSelection');
  const constraints = constraintsFromWire(placement, 'constraints');
  return {
    backoff: {
      initialMs: Math.round(seconds.backoff * 1000),
      factor: seconds.backoffFactor,
      maxMs: Math.round(seconds.maxLaunchDelay * 1000),
    },
    upgrade, unreachable, killSelection, constraints,
  };
}

function backoffSecondsOf(obj: WireObject | undefined): BackoffSeconds {
  const d = POD_BACKOFF_DEFAULT;
  if (obj === undefined) return { ...d };
  return {
    backoff: obj.number('backoff', d.backoff, { min: 0 }),
    backoffFactor: obj.number('backoffFactor', d.backoffFactor, { min: 1 }),
    maxLaunchDelay: obj.number('maxLaunchDelay', d.maxLaunchDelay, { min: 0 }),
  };
}
