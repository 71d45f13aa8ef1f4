import type { Random } from '../../src/scheduler/ports/random';
import type { DelayRange } from './sim-models';

/**
 * A delay drawn uniformly from the closed integer interval `[min, max]` of `range` (one draw from
 * `random`). `min === max` still draws, so that the sequence of draws does not depend on the
 * configured values. Bounds must be integers with `0 <= min <= max`.
 */
export function drawDelayMs(random: Random, range: DelayRange): number {
  const [min, max] = range;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max)) {
    throw new RangeError(`invalid delay range [${min}, ${max}]`);
  }
  return min + Math.floor(random.next() * (max - min + 1));
}

/** True with probability `p` (one draw from `random`). */
export function drawChance(random: Random, p: number): boolean {
  return random.next() < p;
}
