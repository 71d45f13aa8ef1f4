import type { PortRange } from '../../src/scheduler/model/resources';

/** Range lists as text: `"31000-32000,33000-33100"`; a single number `"8080"` is the range `8080-8080`. Empty: no ranges. */
export const RANGES_PATTERN = '^(?:\\d+(?:-\\d+)?(?:\\s*,\\s*\\d+(?:-\\d+)?)*)?$';

/** The result of {@link parseRanges}: sorted ranges, or why the value is not a range list. */
export type RangesResult =
  | { readonly ok: true; readonly ranges: readonly PortRange[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses a range list given as text (`"1-5,7-9"`) or as pairs (`[[1, 5], [7, 9]]`): every range has
 * begin ≤ end ≤ `maxValue`; ranges must not overlap. Returned sorted by begin.
 */
export function parseRanges(value: string | readonly (readonly number[])[], maxValue: number): RangesResult {
  const pairs: [number, number][] = [];
  if (typeof value === 'string') {
    if (!new RegExp(RANGES_PATTERN).test(value)) {
      return { ok: false, reason: `expected ranges such as "31000-32000,33000-33100", got ${JSON.stringify(value)}` };
    }
    for (const part of value.split(',')) {
      const text = part.trim();
      if (text === '') continue;
      const [begin, end] = text.split('-');
      pairs.push([Number(begin), Number(end ?? begin)]);
    }
  } else {
    for (const pair of value) pairs.push([pair[0], pair[1]]);
  }
  for (const [begin, end] of pairs) {
    if (!Number.isSafeInteger(begin) || !Number.isSafeInteger(end) || begin < 0) {
      return { ok: false, reason: `range ${begin}-${end}: expected whole numbers ≥ 0` };
    }
    if (begin > end) return { ok: false, reason: `range ${begin}-${end}: the begin is greater than the end` };
    if (end > maxValue) return { ok: false, reason: `range ${begin}-${end}: expected values ≤ ${maxValue}` };
  }
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < pairs.length; i++) {
    const previous = pairs[i - 1];
    if (pairs[i][0] <= previous[1]) {
      return { ok: false, reason: `ranges ${previous[0]}-${previous[1]} and ${pairs[i][0]}-${pairs[i][1]} overlap` };
    }
  }
  return { ok: true, ranges: pairs };
}
