import type { RunSession } from '../../sim/runner/run-scenario';

/**
 * Drives a run session at wall-clock speed: each loop entry is handled when the real clock
 * reaches its due time (divided by `speed`). The core and the simulated cluster stay
 * synchronous; only this pump waits. Resolves when the run ends or `signal` aborts.
 */
export async function paceSession(session: RunSession, epochMs: number, speed: number, signal: AbortSignal): Promise<void> {
  const wallStart = Date.now();
  for (;;) {
    if (signal.aborted) return;
    const due = session.nextDueMs();
    if (due === undefined || due > session.endMs) return;
    const wallDue = wallStart + (due - epochMs) / speed;
    const waitMs = wallDue - Date.now();
    if (waitMs > 0) await sleep(Math.min(waitMs, 1000), signal);
    if (Date.now() >= wallDue) session.step(due);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
