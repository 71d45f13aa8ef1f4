import { NO_MATCH_REASONS, type NoMatchReason } from '../model/no-match-reason';
import type { Offer } from '../model/offer';

/**
 * One recent offer that a run spec could not use, for `/v2/queue?embed=lastUnusedOffers`: the
 * offer itself (its agent with attributes, and its pools, which Marathon shows as `resources` and
 * `attributes`), why it was not used, and when.
 */
export interface UnusedOffer {
  readonly offer: Offer;
  readonly reason: NoMatchReason;
  readonly atMs: number;
}

/**
 * Offer-processing statistics of one run spec (Marathon's `processedOffersSummary`): offers
 * processed, used and unused, counts per rejection reason, and a bounded ring of the last unused
 * offers. Counters are a flat array indexed by reason so that recording allocates nothing. The ring
 * holds references to the offers as the matcher received them (immutable, shared by every run
 * spec that looked at them), so it costs one slot per entry and keeps at most `ringMax` offers of
 * this run spec alive.
 */
export class RejectionStats {
  processedOffers = 0;
  unusedOffers = 0;
  lastUsedOfferAtMs?: number;
  lastUnusedOfferAtMs?: number;
  private readonly counts = new Array<number>(NO_MATCH_REASONS.length).fill(0);
  // The ring of recent unused offers as parallel arrays: recording allocates nothing.
  private readonly offers: Offer[] = [];
  private readonly reasons: number[] = [];
  private readonly atMs: number[] = [];
  private ringNext = 0;

  constructor(private readonly ringMax: number) {}

  recordUsed(atMs: number): void {
    this.recordUsedMany(1, atMs);
  }

  /** As many {@link recordUsed} calls as `count` (the matcher counts a cycle's uses per run spec). */
  recordUsedMany(count: number, atMs: number): void {
    if (count <= 0) return;
    this.processedOffers += count;
    this.lastUsedOfferAtMs = atMs;
  }

  /**
   * One offer the run spec could not use, and why. The matcher records a cycle's refusals with
   * {@link recordUnusedRun}; this single call is what that run must end exactly as.
   */
  recordUnused(reason: NoMatchReason, offer: Offer, atMs: number): void {
    const index = REASON_INDEX[reason];
    this.processedOffers++;
    this.unusedOffers++;
    this.lastUnusedOfferAtMs = atMs;
    this.counts[index]++;
    if (this.ringMax === 0) return;
    const i = this.ringNext;
    this.offers[i] = offer;
    this.reasons[i] = index;
    this.atMs[i] = atMs;
    this.ringNext = i + 1 === this.ringMax ? 0 : i + 1;
  }

  /**
   * As many {@link recordUnused} calls, in order, as there are entries in `reasons` (reason
   * indices, {@link reasonIndex}) and `offers`: the matcher records a cycle's refusals run spec by run spec. Of a run
   * longer than the ring, only the last `ringMax` are written to it (the others would be
   * overwritten within the run: the ring ends exactly as after the single calls).
   */
  recordUnusedRun(reasons: readonly number[], offers: readonly Offer[], atMs: number): void {
    const count = reasons.length;
    if (count === 0) return;
    this.processedOffers += count;
    this.unusedOffers += count;
    this.lastUnusedOfferAtMs = atMs;
    const counts = this.counts;
    for (let k = 0; k < count; k++) counts[reasons[k]]++;
    const max = this.ringMax;
    if (max === 0) return;
    const skip = count > max ? count - max : 0;
    let i = (this.ringNext + skip) % max;
    for (let k = skip; k < count; k++) {
      this.offers[i] = offers[k];
      this.reasons[i] = reasons[k];
      this.atMs[i] = atMs;
      i = i + 1 === max ? 0 : i + 1;
    }
    this.ringNext = i;
  }

  /** Rejection counts per reason (only reasons that occurred). */
  byReason(): Partial<Record<NoMatchReason, number>> {
    const out: Partial<Record<NoMatchReason, number>> = {};
    NO_MATCH_REASONS.forEach((r, i) => {
      if (this.counts[i] > 0) out[r] = this.counts[i];
    });
    return out;
  }

  /** The last unused offers, oldest first. */
  lastUnused(): UnusedOffer[] {
    const n = this.offers.length;
    const out: UnusedOffer[] = [];
    const start = n < this.ringMax ? 0 : this.ringNext;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      out.push({ offer: this.offers[i], reason: NO_MATCH_REASONS[this.reasons[i]], atMs: this.atMs[i] });
    }
    return out;
  }
}

const REASON_INDEX = Object.fromEntries(NO_MATCH_REASONS.map((r, i) => [r, i])) as Record<NoMatchReason, number>;

/** The index of `reason` in {@link NO_MATCH_REASONS} (what {@link RejectionStats.recordUnusedRun} takes). */
export function reasonIndex(reason: NoMatchReason): number {
  return REASON_INDEX[reason];
}
