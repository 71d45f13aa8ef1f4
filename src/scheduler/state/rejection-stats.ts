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
    this.processedOffers++;
    this.lastUsedOfferAtMs = atMs;
  }

  recordUnused(reason: NoMatchReason, offer: Offer, atMs: number): void {
    this.processedOffers++;
    this.unusedOffers++;
    this.lastUnusedOfferAtMs = atMs;
    const r = REASON_INDEX[reason];
    this.counts[r]++;
    if (this.ringMax === 0) return;
    const i = this.ringNext;
    this.offers[i] = offer;
    this.reasons[i] = r;
    this.atMs[i] = atMs;
    this.ringNext = (i + 1) % this.ringMax;
  }

  /**
   * As many {@link recordUnused} calls, in order, as there are entries `indices[from..to)`, each
   * for `reasons[i]` and `offers[i]` (i an entry): the matcher records a cycle's refusals run spec
   * by run spec. Of a run longer than the ring, only the last `ringMax` are written to it: the
   * others would be overwritten within the run (the ring ends exactly as after the single calls).
   */
  recordUnusedMany(reasons: readonly NoMatchReason[], offers: readonly Offer[], indices: Int32Array, from: number, to: number, atMs: number): void {
    const count = to - from;
    if (count <= 0) return;
    this.processedOffers += count;
    this.unusedOffers += count;
    this.lastUnusedOfferAtMs = atMs;
    for (let k = from; k < to; k++) this.counts[REASON_INDEX[reasons[indices[k]]]]++;
    if (this.ringMax === 0) return;
    const skip = Math.max(0, count - this.ringMax);
    let i = (this.ringNext + skip) % this.ringMax;
    for (let k = from + skip; k < to; k++) {
      const e = indices[k];
      this.offers[i] = offers[e];
      this.reasons[i] = REASON_INDEX[reasons[e]];
      this.atMs[i] = atMs;
      i = (i + 1) % this.ringMax;
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
