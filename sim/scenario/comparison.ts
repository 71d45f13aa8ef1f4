/**
 * An expected count: exactly `value` (`=`), a bound (`>=`, `<=`, `>`, `<`), or an inclusive range
 * `min..max`.
 */
export type Comparison =
  | { readonly op: '=' | '>=' | '<=' | '>' | '<'; readonly value: number }
  | { readonly op: '..'; readonly min: number; readonly max: number };

/** Whether `actual` satisfies the comparison. */
export function compare(expected: Comparison, actual: number): boolean {
  switch (expected.op) {
    case '=': return actual === expected.value;
    case '>=': return actual >= expected.value;
    case '<=': return actual <= expected.value;
    case '>': return actual > expected.value;
    case '<': return actual < expected.value;
    case '..': return actual >= expected.min && actual <= expected.max;
  }
}

/** The expectation in words for a FAIL line: `3`, `>= 2`, `2..4`. */
export function formatExpected(expected: Comparison): string {
  if (expected.op === '=') return String(expected.value);
  if (expected.op === '..') return `${expected.min}..${expected.max}`;
  return `${expected.op} ${expected.value}`;
}

/** The satisfied expectation for a PASS line: `= 3`, `>= 2 (got 3)`, `in 2..4 (got 3)`. */
export function formatSatisfied(expected: Comparison, actual: number): string {
  if (expected.op === '=') return `= ${expected.value}`;
  if (expected.op === '..') return `in ${expected.min}..${expected.max} (got ${actual})`;
  return `${expected.op} ${expected.value} (got ${actual})`;
}
