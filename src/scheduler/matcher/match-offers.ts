import type { LaunchContext } from '../launch-queue/launch-context';
import type { Instance } from '../model/instance';
import type { OfferOperation } from '../model/launch';
import type { Offer } from '../model/offer';
import type { RunSpecState } from '../state/run-spec-state';
import type { FilterPlugin } from './filter-plugin';
import { OfferLedger } from './offer-ledger';
import { runFilters } from './pipeline';
import { reserve } from './reserve';
import { placeInstance } from '../launcher/place-instance';
import { flushInstances } from '../instances/instance-tracker';
import { firstResidentLaunch, residentOperations } from '../launcher/resident-offers';
import { requestFor } from './request-for-role';

/**
 * One matching cycle over a batch of offers (architecture §4). The run specs that want offers are
 * collected once per batch. Each offer then gets rounds in which every candidate may place one
 * instance (fair interleaving), starting where the previous offer stopped so that every run spec
 * progresses, until the offer is full, `maxInstancesPerOffer` is reached or no candidate fits.
 * A candidate rejected by an offer is skipped for the rest of that offer (the ledger only
 * shrinks), and an offer that cannot hold the smallest waiting request is done at once.
 * The instances changed so far are written before each accept (flushInstances: durable before
 * the launch, and once per input); unused offers are declined in one call. At most `budget`
 * instances are placed per call; the offers after that are not looked at and are handed back,
 * untouched, to the caller (offers/offer-batches.ts: kept for a later input or declined to be
 * sent again), so one input stays short however many offers arrive at once.
 * Cost: O(placements + rejections) filter runs; no scan of placed instances.
 */
export class OfferMatcher {
  private offerSeq = 0;

  constructor(private readonly plugins: readonly FilterPlugin[]) {}

  /** Matches `offers` placing at most `budget` instances; returns how many it placed and the offers it did not get to. */
  match(ctx: LaunchContext, offers: readonly Offer[], budget: number): MatchOutcome {
    const nowMs = ctx.clock.nowMs();
    const batch = new Batch(ctx, nowMs);
    const declined: string[] = [];
    const rest: Offer[] = [];
    const allowed = budget;
    for (const offer of offers) {
      if (budget <= 0 && batch.candidates.length > 0) {
        rest.push(offer);
        continue;
      }
      const resident = hasReservations(offer) ? residentOperations(ctx, offer, nowMs) : undefined;
      // The resident pass's operations first, then one or more per instance placed, in order.
      const ops: OfferOperation[] = resident === undefined ? [] : resident.ops.slice();
      const placed = batch.candidates.length === 0 ? 0 : this.matchOne(ctx, offer, batch, nowMs, budget, ops);
      budget -= placed;
      if (ops.length === 0) {
        declined.push(offer.offerId);
        continue;
      }
      // Durable before the cluster sees the launch: the placed instances are written now, once.
      flushInstances(ctx);
      ctx.driver.accept(offer.offerId, ops, ctx.options.acceptRefuseMs);
      batch.dropDrained();
    }
    if (declined.length > 0) ctx.driver.decline(declined, ctx.options.declineRefuseMs);
    return { placed: allowed - budget, rest };
  }

  /** Places what fits of the candidates on `offer`, appending their operations to `ops`; returns how many it placed. */
  private matchOne(ctx: LaunchContext, offer: Offer, batch: Batch, nowMs: number, budget: number, ops: OfferOperation[]): number {
    const seq = ++this.offerSeq;
    const ledger = new OfferLedger(offer);
    const max = Math.min(ctx.options.maxInstancesPerOffer, budget);
    const candidates = batch.candidates;
    const n = candidates.length;
    let progress = true;
    while (progress && ledger.placed < max) {
      progress = false;
      const start = batch.cursor;
      for (let k = 0; k < n && ledger.placed < max; k++) {
        const i = (start + k) % n;
        const rs = candidates[i];
        if (rs.scheduled.length === 0 || rs.failedOfferSeq === seq) continue;
        const next = rs.scheduled.peek() as Instance;
        // A resident instance with a reservation relaunches only on it (resident-offers.ts).
        if (next.reservation !== undefined) continue;
        const request = requestFor(rs, next.role);
        const reason = runFilters(this.plugins, request, ledger, rs.counts);
        if (reason !== undefined) {
          rs.failedOfferSeq = seq;
          if (rs.usedOfferSeq !== seq) rs.rejections.recordUnused(reason, offer, nowMs);
          continue;
        }
        const inst = rs.scheduled.shift() as Instance;
        ctx.state.demandDirty.add(rs);
        if (rs.usedOfferSeq !== seq) {
          rs.usedOfferSeq = seq;
          rs.rejections.recordUsed(nowMs);
        }
        const res = reserve(request, ledger);
        if (rs.spec.resident) for (const op of firstResidentLaunch(ctx, rs, inst, offer, res)) ops.push(op);
        else ops.push(placeInstance(ctx, rs, inst, offer, res));
        progress = true;
        batch.cursor = (i + 1) % n;
        if (rs.scheduled.length === 0) batch.drained = true;
        if (ledger.cannotHold(batch.minCpusMilli, batch.minMemMilli)) return ledger.placed;
      }
    }
    return ledger.placed;
  }
}

/** The candidates of one matching cycle, the fair cursor, and the smallest request among them. */
class Batch {
  candidates: RunSpecState[] = [];
  cursor = 0;
  drained = false;
  minCpusMilli = 0;
  minMemMilli = 0;

  constructor(ctx: LaunchContext, nowMs: number) {
    for (const rs of ctx.demand.wantingRunSpecs()) if (ctx.demand.wantsOffers(rs, nowMs)) this.candidates.push(rs);
    this.computeMinimum();
  }

  /** Forget candidates with nothing left to place (after an offer placed their last instance). */
  dropDrained(): void {
    if (!this.drained) return;
    this.drained = false;
    const next = this.cursor < this.candidates.length ? this.candidates[this.cursor] : undefined;
    this.candidates = this.candidates.filter((rs) => rs.scheduled.length > 0);
    const at = next === undefined ? -1 : this.candidates.indexOf(next);
    this.cursor = at < 0 ? 0 : at;
    this.computeMinimum();
  }

  private computeMinimum(): void {
    let cpus = Infinity;
    let mem = Infinity;
    for (const rs of this.candidates) {
      cpus = Math.min(cpus, rs.request.resources.cpusMilli);
      mem = Math.min(mem, rs.request.resources.memMilli);
    }
    this.minCpusMilli = cpus;
    this.minMemMilli = mem;
  }
}

/** What one {@link OfferMatcher.match} call did: instances placed, offers left unexamined (the budget ran out). */
export interface MatchOutcome {
  readonly placed: number;
  readonly rest: readonly Offer[];
}

function hasReservations(offer: Offer): boolean {
  for (const p of offer.pools) if (p.reservationId !== undefined) return true;
  return false;
}
