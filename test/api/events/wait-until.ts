/**
 * Resolves once `condition()` holds, checking every few milliseconds; rejects naming `what` after
 * `timeoutMs` (every wait in these tests is bounded).
 */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
