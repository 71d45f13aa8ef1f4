/**
 * Bounded exponential backoff for reconnecting to the master (mesos-v1-scheduler-api.md §1.7:
 * "exponential, capped around 15 s"). Each `next()` returns the delay to wait now and doubles the
 * following one up to `maxMs`; `reset()` after a successful subscription starts over.
 */
export class ExponentialBackoff {
  private currentMs: number;

  /**
   * @param initialMs the first delay (> 0)
   * @param maxMs the cap (>= initialMs)
   */
  constructor(private readonly initialMs: number, private readonly maxMs: number) {
    if (!(initialMs > 0) || !(maxMs >= initialMs)) throw new RangeError(`bad backoff bounds ${initialMs}..${maxMs} ms`);
    this.currentMs = initialMs;
  }

  /** The delay to wait before the next attempt; the one after is twice as long (capped). */
  next(): number {
    const delayMs = this.currentMs;
    this.currentMs = Math.min(this.maxMs, this.currentMs * 2);
    return delayMs;
  }

  /** Back to the initial delay (called once subscribed). */
  reset(): void {
    this.currentMs = this.initialMs;
  }
}
