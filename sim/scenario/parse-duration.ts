/**
 * Durations in scenario files: `"250ms"`, `"30s"`, `"5m"`, `"1h"`, `"1h30m"`, `"1.5s"`, or a number of
 * milliseconds. Units appear at most once each, largest first.
 */
export const DURATION_PATTERN = '^(?:\\d+(?:\\.\\d+)?h)?(?:\\d+(?:\\.\\d+)?m)?(?:\\d+(?:\\.\\d+)?s)?(?:\\d+(?:\\.\\d+)?ms)?$';

/** What a duration looks like, in the words error messages use. */
export const DURATION_EXPECTED = 'a duration such as "30s", "5m", "1h30m" or a number of milliseconds';

const PART = /(\d+)(?:\.(\d+))?(ms|h|m|s)/g;

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** The result of {@link parseDurationMs}: integer milliseconds, or why the text is not a duration. */
export type DurationResult = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string };

/**
 * Parses a duration into integer milliseconds. Exact: fractions are computed in integers, so
 * `"1.1s"` is 1100, and a duration that is not a whole number of milliseconds (`"0.5ms"`) is refused.
 */
export function parseDurationMs(value: string | number): DurationResult {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      return { ok: false, reason: `expected ${DURATION_EXPECTED}, got ${value}` };
    }
    return { ok: true, ms: value };
  }
  if (value.length === 0 || !new RegExp(DURATION_PATTERN).test(value)) {
    return { ok: false, reason: `expected ${DURATION_EXPECTED}, got ${JSON.stringify(value)}` };
  }
  let totalMs = 0;
  for (const match of value.matchAll(PART)) {
    const whole = match[1];
    const fraction = match[2] ?? '';
    const scale = 10 ** fraction.length;
    const numerator = (Number(whole) * scale + Number(fraction === '' ? '0' : fraction)) * UNIT_MS[match[3]];
    if (!Number.isSafeInteger(numerator)) {
      return { ok: false, reason: `duration ${JSON.stringify(value)} is too large` };
    }
    if (numerator % scale !== 0) {
      return { ok: false, reason: `expected a whole number of milliseconds, got ${JSON.stringify(value)}` };
    }
    totalMs += numerator / scale;
  }
  if (!Number.isSafeInteger(totalMs)) {
    return { ok: false, reason: `duration ${JSON.stringify(value)} is too large` };
  }
  return { ok: true, ms: totalMs };
}
