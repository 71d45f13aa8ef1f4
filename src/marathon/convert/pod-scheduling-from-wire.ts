import type { BackoffPolicy, KillSelection } from '../../scheduler/model/run-spec';
import { type ConvertedConstraints, constraintsFromWire } from './constraints-from-wire';
import { killSelectionFromWire } from './kill-selection-from-wire';
import { type ConvertedUnreachable, POD_UNREACHABLE_DEFAULT, unreachableFromWire } from './unreachable-from-wire';
import { type ConvertedUpgrade, DEFAULT_UPGRADE, RESIDENT_UPGRADE, upgradeFromWire } from './upgrade-from-wire';
import type { WireObject } from './wire-object';

type BackoffSeconds = typeof POD_BACKOFF_DEFAULT;

/** Pod backoff defaults (spec 2.3): 1 s, ×1.15, at most 3600 s. */
export const POD_BACKOFF_DEFAULT = { backoff: 1, backoffFactor: 1.15, maxLaunchDelay: 3600 };

/** A pod's `scheduling` block, normalized. */
export interface ConvertedPodScheduling {
  readonly backoff: BackoffPolicy;
  readonly upgrade: ConvertedUpgrade;
  readonly unreachable: ConvertedUnreachable;
  readonly killSelection: KillSelection;
  readonly constraints: ConvertedConstraints;
  /** The block as echoed, given the resolved accepted roles (`[]` when none). */
  readonly wire: (acceptedResourceRoles: readonly string[]) => Readonly<Record<string, unknown>>;
}

/**
 * Reads `pod.scheduling` (spec 2.3, defaults as resolved in spec/README.md): backoff
 * `{1, 1.15, 3600}`, upgrade `{1, 1}` (resident `{0.5, 0}`), unreachable `{900, 604800}` (resident
 * `"disabled"`), kill selection `YOUNGEST_FIRST`, placement constraints. Accepted roles are resolved
 * with the role (see role-rules) and only echoed here.
 */
export function podSchedulingFromWire(pod: WireObject, resident: boolean): ConvertedPodScheduling {
  const scheduling = pod.child('scheduling');
  const backoffObj = scheduling?.child('backoff');
  const placement = scheduling?.child('placement');
  const seconds = backoffSecondsOf(backoffObj);
  const upgrade = upgradeFromWire(scheduling, 'upgrade', resident ? RESIDENT_UPGRADE : DEFAULT_UPGRADE, resident);
  const unreachable = unreachableFromWire(scheduling, 'unreachableStrategy', POD_UNREACHABLE_DEFAULT, resident ? 'pods' : undefined);
  const killSelection = killSelectionFromWire(scheduling, 'killSelection');
  const constraints = placement === undefined ? { constraints: [], wire: [] } : constraintsFromWire(placement, 'constraints');
  const wire = (acceptedResourceRoles: readonly string[]): Readonly<Record<string, unknown>> => {
    const backoff = backoffObj?.withExtras(seconds) ?? seconds;
    const placementWire = { constraints: constraints.wire, acceptedResourceRoles };
    const canonical = {
      backoff,
      upgrade: upgrade.wire,
      placement: placement?.withExtras(placementWire) ?? placementWire,
      killSelection,
      unreachableStrategy: unreachable.wire,
    };
    return scheduling?.withExtras(canonical) ?? canonical;
  };
  return {
    backoff: {
      initialMs: Math.round(seconds.backoff * 1000),
      factor: seconds.backoffFactor,
      maxMs: Math.round(seconds.maxLaunchDelay * 1000),
    },
    upgrade, unreachable, killSelection, constraints, wire,
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
