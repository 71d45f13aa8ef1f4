/**
 * Bounded waits for tests on real processes, sockets and timers. The bound is generous on
 * purpose: the suite must pass on a heavily loaded 2-core machine (CI, or a laptop running other
 * work), where starting a Node process or answering a request can take seconds. A wait returns as
 * soon as its condition holds, so the bound only costs time when something is really broken, and
 * then the test fails naming what it waited for. No pacer imports: the tests that spawn pacer
 * load only this.
 */

/** How long a test waits for anything that should happen (a process to start or exit, an event, an answer). */
export const PATIENCE_MS = 60_000;

/** The first pause of a {@link waitFor} without an interval of its own, and its longest. */
export const POLL_FIRST_MS = 10;
export const POLL_MAX_MS = 100;

/**
 * The pauses of a poll without an interval of its own: 10 ms, then half as long again each time,
 * up to 100 ms. A condition that holds at once is seen at once; a long wait (a process starting,
 * a deployment finishing on a loaded machine) probes about ten times a second instead of a
 * hundred: probes that ask a server (HTTP, ZooKeeper) cost CPU on both sides, which CI's 2 cores
 * pay for, and which slows down the very thing waited for.
 */
export function pollPauseMs(previousMs: number | undefined): number {
  return previousMs === undefined ? POLL_FIRST_MS : Math.min(POLL_MAX_MS, Math.ceil(previousMs * 1.5));
}

/**
 * Polls `probe` until it returns something other than `undefined`/`false` and resolves with it;
 * rejects naming `what` after `limitMs`. Between probes it pauses `everyMs`, or, without it, as
 * {@link pollPauseMs} says (10 ms growing to 100 ms).
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, limitMs = PATIENCE_MS, everyMs?: number,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  let pauseMs: number | undefined;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    pauseMs = everyMs ?? pollPauseMs(pauseMs);
    await sleep(pauseMs);
  }
}

/** Rejects naming `what` if `promise` has not settled within `limitMs`. */
export async function within<T>(promise: Promise<T>, what: string, limitMs = PATIENCE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms` (for pacing a poll or letting time pass, never as a wait for something to happen). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A fetch signal for one HTTP request to a server under test: aborts only after {@link PATIENCE_MS}. */
export function patientSignal(): AbortSignal {
  return AbortSignal.timeout(PATIENCE_MS);
}
