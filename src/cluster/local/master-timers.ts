import type { MasterTimerEvent } from '../../master/master-ports';

/** Node's setTimeout limit (about 24.8 days); longer waits are re-armed in steps. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The master model's clock on real time, for the local cluster (src/master/master-ports.ts,
 * `MasterClock`): `nowMs` is the wall clock, and each scheduled event (an allocation round, a
 * refuse filter running out) is handed to `post` when due, on its own turn of Node's event loop.
 * Long waits (a 365-day refuse filter) are re-armed in steps below Node's 32-bit limit, which would
 * otherwise fire at once. Timers are unref'd (they never keep pacer alive); `clear()` cancels
 * everything (the cluster stops). The event type defaults to the master model's; the local
 * cluster's sandbox collector runs on one of its own (`MasterTimers<'collect'>`, sandbox-gc.ts).
 */
export class MasterTimers<E = MasterTimerEvent> {
  private readonly pending = new Map<number, NodeJS.Timeout>();
  private seq = 0;

  constructor(
    private readonly post: (event: E) => void,
    private readonly wallMs: () => number = Date.now,
  ) {}

  nowMs(): number {
    return this.wallMs();
  }

  schedule(dueMs: number, event: E): number {
    const id = ++this.seq;
    this.arm(id, dueMs, event);
    return id;
  }

  cancel(timerId: number): void {
    clearTimeout(this.pending.get(timerId));
    this.pending.delete(timerId);
  }

  /** Number of timers waiting (for tests). */
  get size(): number {
    return this.pending.size;
  }

  /** Cancel every timer. */
  clear(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private arm(id: number, dueMs: number, event: E): void {
    const waitMs = Math.max(0, dueMs - this.wallMs());
    const timer = setTimeout(() => {
      if (waitMs > MAX_TIMEOUT_MS) {
        this.arm(id, dueMs, event);
        return;
      }
      this.pending.delete(id);
      this.post(event);
    }, Math.min(waitMs, MAX_TIMEOUT_MS));
    timer.unref();
    this.pending.set(id, timer);
  }
}
