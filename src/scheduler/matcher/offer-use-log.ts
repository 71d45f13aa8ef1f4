import { assert } from '../kernel/assert';
import type { Offer } from '../model/offer';
import type { RejectionStats } from '../state/rejection-stats';

/** The log's mark of an offer used ({@link OfferUseLog.append}'s `reason`). */
export const USED_OFFER = -1;

/**
 * The matcher folds its log into the run specs' statistics once it holds this many entries
 * (docs/limits.md): the log keeps at most this many offers alive, and a fold costs O(entries).
 */
export const OFFER_LOG_MAX = 4096;

/**
 * What one matching call did with each offer for each run spec it looked at (used it, or could
 * not use it and why), in order, not yet written into the run specs' offer statistics
 * ({@link RejectionStats}). The matcher appends one entry per refusal and per first use of an
 * offer (about one per placement in bench:match), and {@link fold}s the log before its call
 * returns, so every reader of the statistics, all outside the call, sees them exactly as if each
 * entry had been recorded at once.
 *
 * Why a log, and one for all run specs: writing an entry into the statistics of its run spec, or
 * into a log of its own per run spec, loaded that run spec's objects, scattered over a large heap,
 * at every refusal (at a million instances each is a likely cache miss); one log is written in
 * sequence, in memory the previous entry already loaded. With a log per run spec the appends
 * were 12 % of the 1M match (bench/README.md, "2026-11-29 23:20–23:50 UTC").
 *
 * Made once per matcher and reused: its arrays are written in place and never grow.
 */
export class OfferUseLog {
  /** Entries written, at most {@link OFFER_LOG_MAX}. */
  private count = 0;
  /** Each entry's run spec statistics. */
  private readonly stats = new Array<RejectionStats | undefined>(OFFER_LOG_MAX).fill(undefined);
  /** Each entry's reason index (`reasonIndex`), or {@link USED_OFFER} (the indices fit a byte: rejection-stats.ts checks). */
  private readonly reasons = new Int8Array(OFFER_LOG_MAX);
  /** Each entry's offer (undefined for an offer used, and once folded). */
  private readonly offers = new Array<Offer | undefined>(OFFER_LOG_MAX).fill(undefined);

  /** Entries not folded in yet. */
  get length(): number {
    return this.count;
  }

  /**
   * Appends one entry: `stats`' run spec used an offer (`reason` {@link USED_OFFER}, no offer) or
   * could not use `offer` for the reason of index `reason`. Folds the log in at `atMs` first when
   * it is full, so it never holds more than {@link OFFER_LOG_MAX}.
   */
  append(stats: RejectionStats, reason: number, offer: Offer | undefined, atMs: number): void {
    if (this.count === OFFER_LOG_MAX) this.fold(atMs);
    const n = this.count;
    this.stats[n] = stats;
    this.reasons[n] = reason;
    this.offers[n] = offer;
    this.count = n + 1;
  }

  /**
   * Writes every entry, in order, into its statistics, as happened at `atMs` (one matching call
   * has one time), and empties the log; it keeps no statistics or offer alive.
   */
  fold(atMs: number): void {
    const n = this.count;
    const stats = this.stats;
    const reasons = this.reasons;
    const offers = this.offers;
    for (let k = 0; k < n; k++) {
      const s = stats[k];
      if (s === undefined) assert(false, `offer log entry ${k} of ${n} has no statistics`);
      const r = reasons[k];
      if (r === USED_OFFER) s.recordUsed(atMs);
      else s.recordUnusedIndex(r, offers[k] as Offer, atMs);
      stats[k] = undefined;
      offers[k] = undefined;
    }
    this.count = 0;
  }
}
