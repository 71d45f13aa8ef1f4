import { NO_MATCH_REASONS, type NoMatchReason } from '../model/no-match-reason';

/** One recent offer that a run spec could not use, for `/v2/queue?embed=lastUnusedOffers`. */
export interface UnusedOffer {
  readonly offerId: string;
  readonly agentId: string;
  readonly hostname: string;
  readonly reason: NoMatchReason;
  readonly atMs: number;
}

/**
 * Offer-processing statistics of one run spec (Marathon's `processedOffersSummary`): offers
 * processed, used and unused, counts per rejection reason, and a bounded ring of the last unused
 * offers. Counters are a flat array indexed by reason so that recording allocates nothing but the
 * ring entry.
 */
export class RejectionStats {
  processedOffers = 0;
  unusedOffers = 0;
  lastUsedOfferAtMs?: number;
  lastUnusedOfferAtMs?: number;
  private readonly counts = new Array<number>(NO_MATCH_REASONS.length).fill(0);
  private readonly ring: UnusedOffer[] = [];
  private ringNext = 0;

  constructor(private readonly ringMax: number) {}

  recordUsed(atMs: number): void {
    this.processedOffers++;
    this.lastUsedOfferAtMs = atMs;
  }

  recordUnused(reason: NoMatchReason, offerId: string, agentId: string, hostname: string, atMs: number): void {
    this.processedOffers++;
    this.unusedOffers++;
    this.lastUnusedOfferAtMs = atMs;
    this.counts[REASON_INDEX[reason]]++;
    if (this.ringMax === 0) return;
    const entry = { offerId, agentId, hostname, reason, atMs };
    if (this.ring.length < this.ringMax) this.ring.push(entry);
    else this.ring[this.ringNext] = entry;
    this.ringNext = (this.ringNext + 1) % this.ringMax;
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
    if (this.ring.length < this.ringMax) return [...this.ring];
    return [...this.ring.slice(this.ringNext), ...this.ring.slice(0, this.ringNext)];
  }
}

const REASON_INDEX = Object.fromEntries(NO_MATCH_REASONS.map((r, i) => [r, i])) as Record<NoMatchReason, number>;
