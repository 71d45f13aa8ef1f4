import type { TimerInput } from '../scheduler/model/inputs';

/** Node's setTimeout limit (about 24.8 days); longer waits are re-armed in steps. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The Timers port (scheduler/ports/timers.ts) on the real clock: each timer posts its input to
 * `post` when due. Long delays (unreachable expunge after a week, say) are re-armed in steps below
 * Node's 32-bit limit, which would otherwise fire at once. `clear()` cancels everything
 * (shutdown). The inputs are the core's timer inputs by default; the local cluster's master model
 * schedules its own events (a 365-day refuse filter, say) with it too.
 */
export class RealTimers<I = TimerInput> {
  private readonly pending = new Map<number, NodeJS.Timeout>();
  private seq = 0;

  constructor(
    private readonly post: (input: I) => void,
    private readonly nowMs: () => number = Date.now,
  ) {}

  schedule(dueMs: number, input: I): number {
    const id = ++this.seq;
    this.arm(id, dueMs, input);
    return id;
  }

  cancel(timerId: number): void {
    clearTimeout(this.pending.get(timerId));
    this.pending.delete(timerId);
  }

  /** Number of timers waiting (for tests and metrics). */
  get size(): number {
    return this.pending.size;
  }

  clear(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private arm(id: number, dueMs: number, input: I): void {
    const waitMs = Math.max(0, dueMs - this.nowMs());
    const timer = setTimeout(() => {
      if (waitMs > MAX_TIMEOUT_MS) {
        this.arm(id, dueMs, input);
        return;
      }
      this.pending.delete(id);
      this.post(input);
    }, Math.min(waitMs, MAX_TIMEOUT_MS));
    timer.unref();
    this.pending.set(id, timer);
  }
}
