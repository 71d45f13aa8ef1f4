import type { Comparison } from './comparison';

/** Comparison strings: `"3"`, `"=3"`, `">=2"`, `"<=3"`, `">0"`, `"<5"`, `"2..4"`. */
export const COMPARISON_PATTERN = '^\\s*(?:(?:>=|<=|>|<|=)?\\s*\\d+|\\d+\\s*\\.\\.\\s*\\d+)\\s*$';

/** What an expected count looks like, in the words error messages use. */
export const COMPARISON_EXPECTED = 'a whole number or a comparison such as ">=2", "<=3", ">0" or "2..4"';

const BOUND = /^\s*(>=|<=|>|<|=)?\s*(\d+)\s*$/;
const RANGE = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/;

/** The result of {@link parseComparison}. */
export type ComparisonResult =
  | { readonly ok: true; readonly comparison: Comparison }
  | { readonly ok: false; readonly reason: string };

/** Parses an expected count: an exact whole number, or a comparison string. */
export function parseComparison(value: number | string): ComparisonResult {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return { ok: false, reason: `expected ${COMPARISON_EXPECTED}, got ${value}` };
    return { ok: true, comparison: { op: '=', value } };
  }
  // Digits beyond 2^53 - 1 would be rounded (a count printed as 100000000000000000000): refused, as the number form is.
  if ((value.match(/\d+/g) ?? []).some((digits) => !Number.isSafeInteger(Number(digits)))) {
    return { ok: false, reason: `expected ${COMPARISON_EXPECTED} with numbers of at most ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(value)}` };
  }
  const bound = BOUND.exec(value);
  if (bound !== null) {
    const op = (bound[1] ?? '=') as '=' | '>=' | '<=' | '>' | '<';
    return { ok: true, comparison: { op, value: Number(bound[2]) } };
  }
  const range = RANGE.exec(value);
  if (range !== null) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    if (min > max) return { ok: false, reason: `range "${value}": the minimum is greater than the maximum` };
    return { ok: true, comparison: { op: '..', min, max } };
  }
  return { ok: false, reason: `expected ${COMPARISON_EXPECTED}, got ${JSON.stringify(value)}` };
}
