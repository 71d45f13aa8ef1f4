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
 * The matcher does not write the figures offer by offer: it appends what happened to a log
 * ({@link pending}, a {@link PendingLog} it keeps a reference to), so that a cycle loads none of
 * the statistics' objects (at a million instances each is a likely cache miss, for every run spec,
 * in every cycle). The log is folded into the figures ({@link fold}) by every reader first, and by
 * the matcher once it holds {@link PENDING_MAX} entries; the figures then end exactly as if each
 * offer had been recorded at once ({@link recordUsed}, {@link recordUnused}).
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
  /** The log not folded in yet (see the class comment). */
  readonly pending = new PendingLog();

  constructor(private readonly ringMax: number) {}

  /** Offers processed: used and unused. */
  get processedOffers(): number {
    this.fold();
    return this.processed;
  }

  /** Offers the run spec could not use. */
  get unusedOffers(): number {
    this.fold();
    return this.unused;
  }

  /** When it last used an offer. */
  get lastUsedOfferAtMs(): number | undefined {
    this.fold();
    return this.lastUsedAt;
  }

  /** When it last could not use an offer. */
  get lastUnusedOfferAtMs(): number | undefined {
    this.fold();
    return this.lastUnusedAt;
  }

  /** One offer the run spec used. */
  recordUsed(atMs: number): void {
    this.fold();
    this.used(atMs);
  }

  /** One offer the run spec could not use, and why. */
  recordUnused(reason: NoMatchReason, offer: Offer, atMs: number): void {
    this.fold();
    this.unusedOne(REASON_INDEX[reason], offer, atMs);
  }

  /** Folds the log into the figures, in order, and empties it. */
  fold(): void {
    const log = this.pending;
    const n = log.count;
    if (n === 0) return;
    const reasons = log.reasons;
    const offers = log.offers;
    const atMs = log.atMs;
    for (let k = 0; k < n; k++) {
      const r = reasons[k];
      if (r === USED_OFFER) this.used(atMs[k]);
      else this.unusedOne(r, offers[k] as Offer, atMs[k]);
      // The log keeps no offer alive once folded.
      offers[k] = undefined;
    }
    log.count = 0;
  }

  private used(atMs: number): void {
    this.processed++;
    this.lastUsedAt = atMs;
  }

  private unusedOne(index: number, offer: Offer, atMs: number): void {
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
    this.fold();
    const out: Partial<Record<NoMatchReason, number>> = {};
    NO_MATCH_REASONS.forEach((r, i) => {
      if (this.counts[i] > 0) out[r] = this.counts[i];
    });
    return out;
  }

  /** The last unused offers, oldest first. */
  lastUnused(): UnusedOffer[] {
    this.fold();
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

/** The log's mark of an offer used ({@link PendingLog.reasons}). */
export const USED_OFFER = -1;

/**
 * The matcher folds a run spec's log once it holds this many entries (docs/limits.md): the log
 * keeps at most this many offers alive beside the ring, and a fold costs O(entries).
 */
export const PENDING_MAX = 64;

/**
 * A run spec's offer log not folded into its figures yet ({@link RejectionStats.fold}): the first
 * {@link count} entries of three arrays of {@link PENDING_MAX} made once, written in place. Arrays
 * that grew by `push` and were emptied by `length = 0` gave up their storage at every fold and grew
 * again from nothing, about 30 bytes of garbage per entry: two entries per placement in bench:match.
 */
export class PendingLog {
  /** Entries written, at most {@link PENDING_MAX}. */
  count = 0;
  /** Each entry's reason index ({@link reasonIndex}), or {@link USED_OFFER} for an offer used (the indices fit a byte: checked below). */
  readonly reasons = new Int8Array(PENDING_MAX);
  /** Each entry's offer (undefined for an offer used, and once folded). */
  readonly offers: (Offer | undefined)[] = new Array<Offer | undefined>(PENDING_MAX).fill(undefined);
  /** Each entry's time. */
  readonly atMs = new Float64Array(PENDING_MAX);

  /** Appends one entry; returns how many the log holds now (the caller folds it at {@link PENDING_MAX}, so it never holds more). */
  append(reason: number, offer: Offer | undefined, atMs: number): number {
    const n = this.count;
    if (n >= PENDING_MAX) assert(false, `a run spec's offer log holds ${n} entries: it is folded at ${PENDING_MAX}`);
    this.reasons[n] = reason;
    this.offers[n] = offer;
    this.atMs[n] = atMs;
    this.count = n + 1;
    return n + 1;
  }
}

const REASON_INDEX = Object.fromEntries(NO_MATCH_REASONS.map((r, i) => [r, i])) as Record<NoMatchReason, number>;

/** The index of `reason` in {@link NO_MATCH_REASONS} (what {@link PendingLog.reasons} holds). */
export function reasonIndex(reason: NoMatchReason): number {
  return REASON_INDEX[reason];
}

// PendingLog.reasons holds reason indices in signed bytes.
if (NO_MATCH_REASONS.length > 127) assert(false, 'the no-match reasons outgrew PendingLog.reasons (signed bytes)');
