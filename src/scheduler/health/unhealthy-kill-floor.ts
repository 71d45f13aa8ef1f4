import { minimumHealthyCount } from '../instances/restart-bounds';
import type { ValidationDetail } from '../groups/validation-detail';
import type { RunSpec } from '../model/run-spec';

/**
 * Kill-storm protection, the rule (issue 18): how many of an app's instances unhealthy kills must
 * leave running, and which held-back kills may go ahead. Pure and deterministic; the state it
 * reads (which instances count) is gathered by unhealthy-kill.ts, the one caller in the core.
 *
 * Why: when a dependency that every instance shares goes down, every instance fails its health
 * checks at once. Marathon kills them all at `maxConsecutiveFailures` (HealthCheckActor), and the
 * replacements fail too: the app goes from degraded to down, and comes back only after backoff,
 * launch and grace once the dependency is back. Killing instances that were serving and now fail
 * together cannot fix a shared cause; keeping them running loses nothing and lets them recover the
 * moment it is fixed. One bad instance among healthy ones is another matter: it is killed and
 * replaced as before.
 */

/** The label that sets an app's floor, a share of its target instances from 0 to 1 (pacer's own). */
export const UNHEALTHY_KILL_FLOOR_LABEL = 'PACER_UNHEALTHY_KILL_FLOOR';

/** Where an app's floor share comes from: its label, `--unhealthy_kill_floor`, or its upgrade strategy. */
export type FloorSource = 'label' | 'flag' | 'minimumHealthCapacity';

/** An app's floor share and where it comes from. */
export interface FloorCapacity {
  readonly capacity: number;
  readonly source: FloorSource;
}

/**
 * The label's value as a share: a plain decimal from 0 to 1 (`0`, `0.5`, `.75`, `1.0`), or
 * undefined for anything else (signs, exponents, spaces, hex, empty).
 */
export function parseFloorCapacity(text: string): number | undefined {
  if (!/^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 0 && n <= 1 ? n : undefined;
}

/**
 * The share of `spec`'s target instances unhealthy kills leave running: the
 * `PACER_UNHEALTHY_KILL_FLOOR` label, else `flag` (`--unhealthy_kill_floor`), else
 * `upgradeStrategy.minimumHealthCapacity` — the share the operator already asked to keep healthy
 * while instances are replaced, which is what a kill-and-replace is (Marathon's default 1; pods
 * too, though their checks are agent-run and never held back).
 */
export function floorCapacity(spec: RunSpec, flag: number | undefined): FloorCapacity {
  const label = spec.labels[UNHEALTHY_KILL_FLOOR_LABEL];
  const labelled = label === undefined ? undefined : parseFloorCapacity(label);
  if (labelled !== undefined) return { capacity: labelled, source: 'label' };
  if (flag !== undefined) return { capacity: flag, source: 'flag' };
  return { capacity: spec.upgrade.minimumHealthCapacity, source: 'minimumHealthCapacity' };
}

/**
 * The floor: `ceil(target × capacity)` (rounded as Marathon rounds `minimumHealthCapacity`,
 * restart-bounds.ts `minimumHealthyCount`), but at most `target − 1`, so that one instance can always be replaced at a
 * time — a floor of every instance would forbid replacing even the one bad instance of a healthy
 * app (a resident rolling restart dips one below its minimum for the same reason). 0 for a
 * target of 0 or less.
 */
export function unhealthyKillFloor(target: number, capacity: number): number {
  if (target <= 0) return 0;
  return Math.max(0, Math.min(minimumHealthyCount(target, capacity), target - 1));
}

/**
 * Which unhealthy kills may go ahead now. `counted`: the app's instances that count towards the
 * floor now (instances/instance-tracker.ts `countsForFloor`: running, no kill under way, healthy at least once
 * since they started); `candidates`: the instances whose kill is due, in kill-selection order,
 * each saying whether it counts. A candidate that does not count goes ahead (its kill cannot
 * lower the count); one that counts goes ahead while the count stays at or above `floor` after
 * it. Returns one verdict per candidate, true = kill now.
 */
export function killsWithinFloor(counted: number, floor: number, candidates: readonly boolean[]): boolean[] {
  let left = counted;
  return candidates.map((counts) => {
    if (!counts) return true;
    if (left - 1 < floor) return false;
    left--;
    return true;
  });
}

/** A `PACER_UNHEALTHY_KILL_FLOOR` label that is not a share from 0 to 1, as a 422 detail (apps and pods alike). */
export function floorLabelViolations(spec: RunSpec): ValidationDetail[] {
  const label = spec.labels[UNHEALTHY_KILL_FLOOR_LABEL];
  if (label === undefined || parseFloorCapacity(label) !== undefined) return [];
  return [{
    path: `/labels/${UNHEALTHY_KILL_FLOOR_LABEL}`,
    errors: [`expected a number from 0 to 1 (the share of the target instances unhealthy kills leave running), got ${JSON.stringify(label)}`],
  }];
}
