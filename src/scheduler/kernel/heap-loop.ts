/**
 * The one queue that owns all ordering: entries are handled in (dueMs, seq) order, where seq is
 * the order in which they were posted. A binary min-heap keeps `schedule` and `pop` at O(log n), so
 * a simulator with a timer per instance (health checks, unreachable deadlines) stays fast at scale.
 *
 * Entries posted for the instant being handled (the due time of the entry popped last) — status
 * updates answered now, a reconciliation's thousands of answers, offers — skip the heap: they go to
 * a FIFO, which is already in (dueMs, seq) order since they share one due time and seq only grows.
 * `popDue` takes the smaller of the heap's top and the FIFO's head, so the order is exactly the
 * heap's alone; such an entry costs O(1) instead of two walks through a heap of every timer.
 *
 * Cancelled entries are removed lazily: `cancel` marks the entry and `pop` skips it.
 * The loop holds no clock; whoever drives it (sim runner or real-time pump) advances time to the
 * due time of the entry it pops.
 */
export class HeapLoop<T> {
  private readonly heap: LoopEntry<T>[] = [];
  /** Entries due at `nowDueMs`, posting order, from `fifoHead` on. */
  private fifo: (LoopEntry<T> | undefined)[] = [];
  private fifoHead = 0;
  /** The due time FIFO entries share: the due time of the entry popped last while the FIFO was empty. */
  private nowDueMs = Number.NaN;
  /** The entries queued by {@link schedule} and not yet handled or cancelled, by id (what `cancel` looks up). */
  private readonly live = new Map<number, LoopEntry<T>>();
  /** Entries queued by {@link post} and not yet handled (no id kept: they cannot be cancelled). */
  private posted = 0;
  private seq = 0;

  /** Queue `input` to be handled at `dueMs` (absolute virtual or real milliseconds); returns its id for {@link cancel}. */
  schedule(dueMs: number, input: T): number {
    const entry: LoopEntry<T> = { dueMs, seq: ++this.seq, input, cancelled: false, cancellable: true };
    this.live.set(entry.seq, entry);
    this.enqueue(entry);
    return entry.seq;
  }

  /**
   * Queue `input` as {@link schedule} does, for one that is never cancelled (the cluster's news
   * to the core: every status update, every offer): it takes its place in the order (and an id,
   * so the ids of later entries are what they would be) but no entry in the map of cancellable
   * ones, whose insert and delete per entry were a tenth of bench:sim's day.
   */
  post(dueMs: number, input: T): void {
    this.posted++;
    this.enqueue({ dueMs, seq: ++this.seq, input, cancelled: false, cancellable: false });
  }

  private enqueue(entry: LoopEntry<T>): void {
    if (entry.dueMs === this.nowDueMs) this.fifo.push(entry);
    else this.push(entry);
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
    return this.next()?.dueMs;
  }

  /**
   * Remove and return the next live entry whose due time is at most `untilMs` — and, when
   * `maxSeq` is given, that was scheduled no later than the entry of that id: an entry scheduled
   * after it stops the pop (and stays, first in line), so a caller can drain what was queued
   * before some moment without also draining what handling it queues.
   */
  popDue(untilMs: number, maxSeq = Number.POSITIVE_INFINITY): LoopEntry<T> | undefined {
    const next = this.next();
    if (next === undefined || next.dueMs > untilMs || next.seq > maxSeq) return undefined;
    if (next === this.heap[0]) this.popTop();
    else this.shiftFifo();
    if (next.cancellable) this.live.delete(next.seq);
    else this.posted--;
    if (this.fifoHead === this.fifo.length) this.nowDueMs = next.dueMs;
    return next;
  }

  /** Number of live entries. */
  get size(): number {
    return this.live.size + this.posted;
  }

  /** The next live entry (cancelled ones at the front of either queue dropped), not removed. */
  private next(): LoopEntry<T> | undefined {
    const heap = this.heap;
    while (heap.length > 0 && heap[0].cancelled) this.popTop();
    while (this.fifo[this.fifoHead]?.cancelled === true) this.shiftFifo();
    const top = heap.length > 0 ? heap[0] : undefined;
    const head = this.fifo[this.fifoHead];
    if (head === undefined) return top;
    return top !== undefined && before(top, head) ? top : head;
  }

  private shiftFifo(): void {
    const fifo = this.fifo;
    fifo[this.fifoHead++] = undefined;
    if (this.fifoHead === fifo.length) {
      this.fifo = [];
      this.fifoHead = 0;
    } else if (this.fifoHead >= 4096 && this.fifoHead * 2 >= fifo.length) {
      this.fifo = fifo.slice(this.fifoHead);
      this.fifoHead = 0;
    }
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
  /** Queued by `schedule` (it has an entry in the map of cancellable ones), not by `post`. */
  readonly cancellable: boolean;
}

function before<T>(a: LoopEntry<T>, b: LoopEntry<T>): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
