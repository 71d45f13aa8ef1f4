import { PATIENCE_MS, waitFor } from '../../harness/wait';

/**
 * Resolves once `condition()` holds, checking every few milliseconds; rejects naming `what` after
 * `timeoutMs` (every wait in these tests is bounded, generously: test/harness/wait.ts).
 */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = PATIENCE_MS): Promise<void> {
  await waitFor(condition, what, timeoutMs, 5);
}
