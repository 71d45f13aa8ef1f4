import { assert } from '../kernel/assert';
import type { Offer } from '../model/offer';
import type { RejectionStats } from '../state/rejection-stats';

/** The log's mark of an offer used ({@link OfferUseLog.append}'s `reason`). */
export const USED_OFFER = -1;

/**
 * The matcher folds its log into the run specs' statistics once it holds this many entries
 * (docs/limits.md): the log keeps at most this many offers alive, and a fold costs O(entries).
 * Larger than a round of a thousand run specs (the fold visits each run spec's statistics once
 * per fold, whatever its entries: bench/README.md, "2026-12-03").
 */
export const OFFER_LOG_MAX = 16_384;

/**
 * The log's table of statistics by slot is started over after a fold once it holds more than
 * this many (docs/limits.md): the statistics of run specs gone stay referenced until then. It
 * grows by at most {@link OFFER_LOG_MAX} between two folds (a slot is made for an entry).
 */
export const OFFER_LOG_SLOTS_MAX = 16_384;

/**
 * What one matching call did with each offer for each run spec it looked at (used it, or could
 * not use it and why), in order, not yet written into the run specs' offer statistics
 * ({@link RejectionStats}). The matcher appends one entry per refusal and per first use of an
 * offer (about two per placement in bench:match), and {@link fold}s the log before its call
 * returns, so every reader of the statistics, all outside the call, sees them exactly as if each
 * entry had been recorded at once.
 *
 * Why a log, and one for all run specs: writing an entry into the statistics of its run spec, or
 * into a log of its own per run spec, loaded that run spec's objects, scattered over a large heap,
 * at every refusal (at a million instances each is a likely cache miss); one log is written in
 * sequence, in memory the previous entry already loaded. With a log per run spec the appends
 * were 12 % of the 1M match (bench/README.md, "2026-11-29 23:20–23:50 UTC").
 *
 * An entry names its statistics by a slot number ({@link slotOf}), which the matcher's candidate
 * keeps (with the table's {@link generation}), so an append reads nothing of the statistics. A
 * fold takes the entries run spec by run spec (a counting sort on the slot, in their order
 * within each run spec: the statistics of different run specs are independent), so each run
 * spec's statistics are loaded once per fold, not once per entry: folding entry by entry, two
 * cache misses per entry (the statistics' counters and their elements) were 5 % of the 1M match.
 *
 * Made once per matcher and reused: its arrays are written in place and never grow.
 */
export class OfferUseLog {
  /** Entries written, at most {@link OFFER_LOG_MAX}. */
  private count = 0;
  /** Each entry's statistics, by slot. */
  private readonly slots = new Int32Array(OFFER_LOG_MAX);
  /** Each entry's reason index (`reasonIndex`), or {@link USED_OFFER} (the indices fit a byte: rejection-stats.ts checks). */
  private readonly reasons = new Int8Array(OFFER_LOG_MAX);
  /** Each entry's offer (undefined for an offer used, and once folded). */
  private readonly offers = new Array<Offer | undefined>(OFFER_LOG_MAX).fill(undefined);
  /** The statistics of each slot, and each one's slot. */
  private table: RejectionStats[] = [];
  private readonly slotByStats = new Map<RejectionStats, number>();
  /** A fold's entries by slot: where each slot's entries start, then the entries in that order. */
  private starts = new Int32Array(1024);
  private readonly order = new Int32Array(OFFER_LOG_MAX);
  /** Changes when the table starts over: a slot kept from another generation is asked for again. */
  private tableGeneration = 0;

  /** Entries not folded in yet. */
  get length(): number {
    return this.count;
  }

  /** The table's generation: a slot from {@link slotOf} holds while this stays the same. */
  get generation(): number {
    return this.tableGeneration;
  }

  /** The slot of `stats` in this generation of the table (made at its first use). */
  slotOf(stats: RejectionStats): number {
    let slot = this.slotByStats.get(stats);
    if (slot === undefined) {
      slot = this.table.length;
      this.table.push(stats);
      this.slotByStats.set(stats, slot);
    }
    return slot;
  }

  /** As {@link appendSlot}, for statistics without a kept slot. */
  append(stats: RejectionStats, reason: number, offer: Offer | undefined, atMs: number): void {
    this.appendSlot(this.slotOf(stats), reason, offer, atMs);
  }

  /**
   * Appends one entry: the run spec of the statistics in `slot` ({@link slotOf}, this
   * {@link generation}) used an offer (`reason` {@link USED_OFFER}, no offer) or could not use
   * `offer` for the reason of index `reason`. Folds the log in at `atMs` first when it is full, so
   * it never holds more than {@link OFFER_LOG_MAX}; a fold keeps the table's generation (it may
   * start the table over only at the end of {@link fold} called from outside).
   */
  appendSlot(slot: number, reason: number, offer: Offer | undefined, atMs: number): void {
    if (this.count === OFFER_LOG_MAX) this.foldEntries(atMs);
    const n = this.count;
    this.slots[n] = slot;
    this.reasons[n] = reason;
    this.offers[n] = offer;
    this.count = n + 1;
  }

  /**
   * Writes every entry into its statistics, as happened at `atMs` (one matching call has one
   * time), each run spec's in their order, and empties the log; then starts the table over if it
   * holds more than {@link OFFER_LOG_SLOTS_MAX} statistics. It keeps no offer alive.
   */
  fold(atMs: number): void {
    this.foldEntries(atMs);
    if (this.table.length <= OFFER_LOG_SLOTS_MAX) return;
    this.table = [];
    this.slotByStats.clear();
    this.tableGeneration++;
  }

  private foldEntries(atMs: number): void {
    const n = this.count;
    if (n === 0) return;
    const order = this.sortBySlot(n);
    const reasons = this.reasons;
    const offers = this.offers;
    const table = this.table;
    for (let j = 0; j < n; j++) {
      const k = order[j];
      const s = table[this.slots[k]];
      if (s === undefined) assert(false, `offer log entry ${k} of ${n} has no statistics (slot ${this.slots[k]})`);
      const r = reasons[k];
      if (r === USED_OFFER) s.recordUsed(atMs);
      else s.recordUnusedIndex(r, offers[k] as Offer, atMs);
      offers[k] = undefined;
    }
    this.count = 0;
  }

  /** The indices of the first `n` entries, by slot, in their order within a slot (a counting sort). */
  private sortBySlot(n: number): Int32Array {
    const slots = this.slots;
    const m = this.table.length;
    if (this.starts.length < m + 1) this.starts = new Int32Array(Math.max(m + 1, this.starts.length * 2));
    const starts = this.starts;
    starts.fill(0, 0, m + 1);
    for (let k = 0; k < n; k++) starts[slots[k] + 1]++;
    for (let i = 1; i <= m; i++) starts[i] += starts[i - 1];
    const order = this.order;
    for (let k = 0; k < n; k++) order[starts[slots[k]]++] = k;
    return order;
  }
}
