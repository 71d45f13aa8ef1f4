import type { WireObject } from './wire-object';

/** The timing fields every health check has, in seconds as written on the wire. */
export interface HealthCheckTiming {
  readonly gracePeriodSeconds: number;
  readonly intervalSeconds: number;
  readonly timeoutSeconds: number;
  readonly maxConsecutiveFailures: number;
  readonly delaySeconds: number;
}

/** App health check defaults (spec 2.5; `delaySeconds` 15 from Marathon, where it has no effect). */
export const APP_CHECK_TIMING: HealthCheckTiming = {
  gracePeriodSeconds: 300, intervalSeconds: 60, timeoutSeconds: 20, maxConsecutiveFailures: 3, delaySeconds: 15,
};

/** Pod container health check defaults (spec 2.6: `delaySeconds` 2). */
export const POD_CHECK_TIMING: HealthCheckTiming = { ...APP_CHECK_TIMING, delaySeconds: 2 };

/**
 * Reads the timing fields of a health check: non-negative integers, `intervalSeconds` at least 1
 * (a zero interval would make a prober spin), missing ones from `defaults`.
 */
export function healthCheckTimingFromWire(check: WireObject, defaults: HealthCheckTiming): HealthCheckTiming {
  const rule = { min: 0, integer: true };
  return {
    gracePeriodSeconds: check.number('gracePeriodSeconds', defaults.gracePeriodSeconds, rule),
    intervalSeconds: check.number('intervalSeconds', defaults.intervalSeconds, { min: 1, integer: true }),
    timeoutSeconds: check.number('timeoutSeconds', defaults.timeoutSeconds, rule),
    maxConsecutiveFailures: check.number('maxConsecutiveFailures', defaults.maxConsecutiveFailures, rule),
    delaySeconds: check.number('delaySeconds', defaults.delaySeconds, rule),
  };
}

/** The timing in the core's milliseconds (`maxConsecutiveFailures` unchanged). */
export function timingMs(timing: HealthCheckTiming): {
  gracePeriodMs: number; intervalMs: number; timeoutMs: number; maxConsecutiveFailures: number; delayMs: number;
} {
  return {
    gracePeriodMs: timing.gracePeriodSeconds * 1000,
    intervalMs: timing.intervalSeconds * 1000,
    timeoutMs: timing.timeoutSeconds * 1000,
    maxConsecutiveFailures: timing.maxConsecutiveFailures,
    delayMs: timing.delaySeconds * 1000,
  };
}
