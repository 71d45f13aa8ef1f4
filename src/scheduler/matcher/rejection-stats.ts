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
  // The ring of recent unused offers as parallel arrays: recording allocates nothing.
  private readonly offerIds: string[] = [];
  private readonly agentIds: string[] = [];
  private readonly hostnames: string[] = [];
  private readonly reasons: number[] = [];
  private readonly atMs: number[] = [];
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
    const r = REASON_INDEX[reason];
    this.counts[r]++;
    if (this.ringMax === 0) return;
    const i = this.ringNext;
    this.offerIds[i] = offerId;
    this.agentIds[i] = agentId;
    this.hostnames[i] = hostname;
    this.reasons[i] = r;
    this.atMs[i] = atMs;
    this.ringNext = (i + 1) % this.ringMax;
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
    const n = this.offerIds.length;
    const out: UnusedOffer[] = [];
    const start = n < this.ringMax ? 0 : this.ringNext;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      out.push({ offerId: this.offerIds[i], agentId: this.agentIds[i], hostname: this.hostnames[i], reason: NO_MATCH_REASONS[this.reasons[i]], atMs: this.atMs[i] });
    }
    return out;
  }
}

const REASON_INDEX = Object.fromEntries(NO_MATCH_REASONS.map((r, i) => [r, i])) as Record<NoMatchReason, number>;
