/**
 * The one queue that owns all ordering: entries are handled in (dueMs, seq) order, where seq is
 * the order in which they were posted. A binary min-heap keeps `schedule` and `pop` at O(log n), so
 * a simulator with a timer per instance (health checks, unreachable deadlines) stays fast at scale.
 *
 * Cancelled entries are removed lazily: `cancel` marks the entry and `pop` skips it.
 * The loop holds no clock; whoever drives it (sim runner or real-time pump) advances time to the
 * due time of the entry it pops.
 */
export class HeapLoop<T> {
  private readonly heap: LoopEntry<T>[] = [];
  private readonly live = new Map<number, LoopEntry<T>>();
  private seq = 0;

  /** Queue `input` to be handled at `dueMs` (absolute virtual or real milliseconds). */
  schedule(dueMs: number, input: T): number {
    const entry: LoopEntry<T> = { dueMs, seq: ++this.seq, input, cancelled: false };
    this.live.set(entry.seq, entry);
    this.push(entry);
    return entry.seq;
  }

  /** Cancel a scheduled entry; cancelling an id that already ran or never existed is a no-op. */
  cancel(id: number): void {
    const entry = this.live.get(id);
    if (entry === undefined) return;
    entry.cancelled = true;
    this.live.delete(id);
  }

  /** Due time of the next live entry, or undefined when the queue is empty. */
  peekDueMs(): number | undefined {
    this.dropCancelledTop();
    return this.heap.length === 0 ? undefined : this.heap[0].dueMs;
  }

  /** Remove and return the next live entry whose due time is at most `untilMs`. */
  popDue(untilMs: number): LoopEntry<T> | undefined {
    this.dropCancelledTop();
    if (this.heap.length === 0 || this.heap[0].dueMs > untilMs) return undefined;
    const top = this.popTop();
    this.live.delete(top.seq);
    return top;
  }

  /** Number of live entries. */
  get size(): number {
    return this.live.size;
  }

  private dropCancelledTop(): void {
    while (this.heap.length > 0 && this.heap[0].cancelled) this.popTop();
  }

  private push(entry: LoopEntry<T>): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = entry;
  }

  private popTop(): LoopEntry<T> {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as LoopEntry<T>;
    if (heap.length > 0) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(heap[r], heap[l]) ? r : l;
        if (!before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}

/** One queued input. `seq` breaks ties between entries due at the same millisecond. */
export interface LoopEntry<T> {
  readonly dueMs: number;
  readonly seq: number;
  readonly input: T;
  cancelled: boolean;
}

function before<T>(a: LoopEntry<T>, b: LoopEntry<T>): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
