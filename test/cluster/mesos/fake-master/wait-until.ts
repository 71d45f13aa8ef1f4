/**
 * Polls `probe` every 5 ms until it returns something other than `undefined`/`false`, and
 * resolves with it; rejects naming `what` after `timeoutMs` (every wait in these tests is bounded).
 */
export async function waitUntil<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
