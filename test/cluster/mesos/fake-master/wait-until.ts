import { waitFor } from '../../../harness/wait';

/**
 * Polls `probe` every 5 ms until it returns something other than `undefined`/`false`, and
 * resolves with it; rejects naming `what` after `timeoutMs` (test/harness/wait.ts; pass
 * `PATIENCE_MS` from there unless the test is about a deadline).
 */
export function waitUntil<T>(probe: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  return waitFor(probe, what, timeoutMs, 5);
}
