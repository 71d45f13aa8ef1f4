/**
 * Bounds of the what-if forks (issue 18; docs/limits.md, "What-if"): how far a fork may run in
 * virtual time, how large a live cluster may be to be forked, and how long a fork may take on
 * the wall clock (it runs on the API's thread, between the live loop's inputs).
 */
export interface WhatIfLimits {
  /** Largest `simulate` duration. */
  readonly maxSimulateMs: number;
  /** Instances the live core may hold (all run specs) for a fork to be taken. */
  readonly maxInstances: number;
  /** Agents (last offers) the live cluster may have for a fork to be taken. */
  readonly maxAgents: number;
  /** Wall-clock time a fork may run; beyond it the fork stops and says so (`stoppedBy: "wall-time"`). */
  readonly wallTimeMs: number;
  /** Loop entries a fork may handle; beyond it the fork stops and says so (`stoppedBy: "steps"`). */
  readonly maxSteps: number;
  /** Most additional instances a capacity question tries. */
  readonly maxCapacityInstances: number;
  /** Virtual time a capacity question runs at most. */
  readonly capacityMs: number;
}

export const DEFAULT_WHAT_IF_LIMITS: WhatIfLimits = {
  maxSimulateMs: 24 * 3_600_000,
  maxInstances: 20_000,
  maxAgents: 2_000,
  wallTimeMs: 5_000,
  maxSteps: 2_000_000,
  maxCapacityInstances: 1_000,
  capacityMs: 10 * 60_000,
};

/** The fork cannot be taken or the question cannot be asked (422 with the message). */
export class WhatIfRefused extends Error {}

/** `PT` then hours, minutes and seconds (with a fraction), each optional; how many digits each may have is checked after. */
const ISO_DURATION = /^PT(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$/;

/** The most digits of the hours, minutes and seconds (each part's value stays exact), and of a fraction (milliseconds). */
const PART_DIGITS_MAX = [6, 8, 10] as const;
const FRACTION_DIGITS_MAX = 3;

/**
 * `simulate`: an ISO 8601 duration of hours, minutes and seconds (`PT30M`, `PT1H30M`, `PT90S`,
 * `PT0.5S`), above zero and at most `maxMs`. Returns ms, or why the value is refused: not such a
 * duration, more precise than milliseconds, longer than `maxMs` (however many digits say so), or
 * written with more digits than a part may have.
 */
export function parseSimulate(value: unknown, maxMs: number): { ok: true; ms: number } | { ok: false; message: string } {
  if (typeof value !== 'string') return { ok: false, message: 'simulate must be given once, as an ISO 8601 duration such as PT30M' };
  const shown = JSON.stringify(value.slice(0, 40));
  const expected = `simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got ${shown}`;
  const m = ISO_DURATION.exec(value);
  if (m === null || value === 'PT') return { ok: false, message: expected };
  const fraction = m[4] ?? '';
  if (fraction.length > FRACTION_DIGITS_MAX) return { ok: false, message: `simulate is counted in milliseconds: at most ${FRACTION_DIGITS_MAX} digits after the point; got ${shown}` };
  // Exact while every part is within its digits; beyond them only compared with the bound.
  const ms = Number(m[1] ?? 0) * 3_600_000 + Number(m[2] ?? 0) * 60_000 + Number(m[3] ?? 0) * 1000 + Number(fraction.padEnd(FRACTION_DIGITS_MAX, '0'));
  if (ms > maxMs) return { ok: false, message: `simulate may be at most ${isoDuration(maxMs)} (docs/limits.md); got ${shown}` };
  if (PART_DIGITS_MAX.some((max, i) => (m[i + 1] ?? '').length > max)) return { ok: false, message: `${expected} (too many digits)` };
  if (ms <= 0) return { ok: false, message: 'simulate must be longer than zero' };
  return { ok: true, ms };
}

/** ms as an ISO 8601 duration (`PT1H2M3.004S`); `PT0S` for zero. */
export function isoDuration(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const out = `PT${h > 0 ? `${h}H` : ''}${m > 0 ? `${m}M` : ''}${s > 0 ? `${Number(s.toFixed(3))}S` : ''}`;
  return out === 'PT' ? 'PT0S' : out;
}
