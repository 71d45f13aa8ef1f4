import { assert } from '../kernel/assert';
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
 *
 * The matcher records through its log (matcher/offer-use-log.ts), folded in before each of its
 * calls returns: the figures read between inputs are exact.
 */
export class RejectionStats {
  private processed = 0;
  private unused = 0;
  private lastUsedAt: number | undefined = undefined;
  private lastUnusedAt: number | undefined = undefined;
  private readonly counts = new Array<number>(NO_MATCH_REASONS.length).fill(0);
  // The ring of recent unused offers as parallel arrays: recording allocates nothing.
  private readonly offers: Offer[] = [];
  private readonly reasons: number[] = [];
  private readonly atMs: number[] = [];
  private ringNext = 0;

  constructor(private readonly ringMax: number) {}

  /** Offers processed: used and unused. */
  get processedOffers(): number {
    return this.processed;
  }

  /** Offers the run spec could not use. */
  get unusedOffers(): number {
    return this.unused;
  }

  /** When it last used an offer. */
  get lastUsedOfferAtMs(): number | undefined {
    return this.lastUsedAt;
  }

  /** When it last could not use an offer. */
  get lastUnusedOfferAtMs(): number | undefined {
    return this.lastUnusedAt;
  }

  /** One offer the run spec used. */
  recordUsed(atMs: number): void {
    this.processed++;
    this.lastUsedAt = atMs;
  }

  /** One offer the run spec could not use, and why. */
  recordUnused(reason: NoMatchReason, offer: Offer, atMs: number): void {
    this.recordUnusedIndex(REASON_INDEX[reason], offer, atMs);
  }

  /** As {@link recordUnused}, the reason given by its index in NO_MATCH_REASONS ({@link reasonIndex}). */
  recordUnusedIndex(index: number, offer: Offer, atMs: number): void {
    if (!(Number.isInteger(index) && index >= 0 && index < NO_MATCH_REASONS.length)) assert(false, `no no-match reason has index ${index}`);
    this.processed++;
    this.unused++;
    this.lastUnusedAt = atMs;
    this.counts[index]++;
    if (this.ringMax === 0) return;
    const i = this.ringNext;
    this.offers[i] = offer;
    this.reasons[i] = index;
    this.atMs[i] = atMs;
    this.ringNext = i + 1 === this.ringMax ? 0 : i + 1;
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

/** The index of `reason` in {@link NO_MATCH_REASONS} (what the matcher's offer log holds, matcher/offer-use-log.ts). */
export function reasonIndex(reason: NoMatchReason): number {
  return REASON_INDEX[reason];
}

// The matcher's offer log holds reason indices in signed bytes (matcher/offer-use-log.ts).
if (NO_MATCH_REASONS.length > 127) assert(false, 'the no-match reasons outgrew the offer log (signed bytes)');
