import type { RunSession } from '../../sim/runner/run-scenario';

/** The event a `wake` target of {@link paceSession} dispatches to cut the current wait short. */
export const PACE_WAKE_EVENT = 'wake';

/**
 * Drives a run session at wall-clock speed: each loop entry is handled when the real clock
 * reaches its due time (divided by `speed`); `epochMs` is the virtual instant of the call. The
 * core and the simulated cluster stay synchronous; only this pump waits. Resolves when the run
 * ends or `signal` aborts. `wake` (optional) ends a wait early, so an entry posted from outside
 * (a command from the REST API schedules work at the current instant) is not held up.
 */
export async function paceSession(session: RunSession, epochMs: number, speed: number, signal: AbortSignal, wake?: EventTarget): Promise<void> {
  const wallStart = Date.now();
  let yieldedAt = wallStart;
  for (;;) {
    if (signal.aborted) return;
    const due = session.nextDueMs();
    if (due === undefined || due > session.endMs) return;
    const wallDue = wallStart + (due - epochMs) / speed;
    const waitMs = wallDue - Date.now();
    if (waitMs > 0) {
      await sleep(Math.min(waitMs, 1000), signal, wake);
      yieldedAt = Date.now();
    } else if (Date.now() - yieldedAt >= YIELD_EVERY_MS) {
      // Behind the clock (a high speed, a busy machine) there is never a wait: let signals, API
      // requests and timers in now and then, or Ctrl-C and the REST API starve.
      await new Promise<void>((resolve) => setImmediate(resolve));
      yieldedAt = Date.now();
    }
    if (Date.now() >= wallDue) session.step(due);
  }
}

/** Longest stretch of entries handled back to back, behind the clock, without yielding to the event loop. */
const YIELD_EVERY_MS = 10;

function sleep(ms: number, signal: AbortSignal, wake: EventTarget | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      wake?.removeEventListener(PACE_WAKE_EVENT, done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    wake?.addEventListener(PACE_WAKE_EVENT, done, { once: true });
  });
}
