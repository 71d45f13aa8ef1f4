import type { OutgoingCall } from './transport/call-outbox';

/** Calls that may be sent twice without harm, so they are retried when no answer came (§1.6). */
const RETRYABLE_CALLS: ReadonlySet<string> = new Set(['KILL', 'ACKNOWLEDGE', 'RECONCILE', 'REVIVE', 'SUPPRESS', 'UPDATE_FRAMEWORK']);

/**
 * Sends again, after a doubling delay, a call that got no answer at all (network fault, timeout:
 * the master may or may not have processed it) — only when repeating it is harmless (KILL,
 * ACKNOWLEDGE, RECONCILE, REVIVE, SUPPRESS, UPDATE_FRAMEWORK; never an ACCEPT, whose offer may
 * have been used) and at most `maxRetries` times per call.
 */
export class UnansweredCallRetry {
  private readonly attempts = new WeakMap<OutgoingCall, number>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /**
   * @param initialMs the delay before the first retry (doubling for the next)
   * @param maxRetries retries per call
   * @param resend sends the copy of the call (through the outbox, which holds or drops it while disconnected)
   */
  constructor(private readonly initialMs: number, private readonly maxRetries: number, private readonly resend: (item: OutgoingCall) => void) {}

  /** Schedules a retry of `item` and returns its delay in ms, or undefined when it is not retried. */
  retry(item: OutgoingCall): number | undefined {
    const attempt = (this.attempts.get(item) ?? 0) + 1;
    if (!RETRYABLE_CALLS.has(item.call.type) || attempt > this.maxRetries) return undefined;
    const delayMs = this.initialMs * 2 ** (attempt - 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const again: OutgoingCall = { ...item };
      this.attempts.set(again, attempt);
      this.resend(again);
    }, delayMs);
    this.timers.add(timer);
    return delayMs;
  }

  /** Cancels every scheduled retry. */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
