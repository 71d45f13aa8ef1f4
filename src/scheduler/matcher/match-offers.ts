import type { LaunchContext } from '../launch-queue/launch-context';
import type { Instance } from '../model/instance';
import type { OfferOperation } from '../model/launch';
import type { Offer } from '../model/offer';
import type { InstanceQueue } from '../state/instance-queue';
import type { LaunchRequest } from '../state/launch-request';
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
        const c = candidates[i];
        if (c.failedSeq === seq || c.queue.length === 0) continue;
        const request = c.headRequest();
        // A resident instance with a reservation relaunches only on it (resident-offers.ts).
        if (request === undefined) continue;
        const rs = c.rs;
        const reason = runFilters(this.plugins, request, ledger, rs.counts);
        if (reason !== undefined) {
          c.failedSeq = seq;
          if (c.usedSeq !== seq) rs.rejections.recordUnused(reason, offer, nowMs);
          continue;
        }
        const inst = c.queue.shift() as Instance;
        if (!c.demandMarked) {
          // Its queue changed: the demand looks at it again after this input (once per batch is enough).
          ctx.state.demandDirty.add(rs);
          c.demandMarked = true;
        }
        if (c.usedSeq !== seq) {
          c.usedSeq = seq;
          rs.rejections.recordUsed(nowMs);
        }
        const res = reserve(request, ledger);
        if (c.resident) for (const op of firstResidentLaunch(ctx, rs, inst, offer, res)) ops.push(op);
        else ops.push(placeInstance(ctx, rs, inst, offer, res));
        progress = true;
        batch.cursor = (i + 1) % n;
        if (c.queue.length === 0) batch.drained = true;
        if (ledger.cannotHold(batch.minCpusMilli, batch.minMemMilli)) return ledger.placed;
      }
    }
    return ledger.placed;
  }
}

/**
 * One run spec that wants offers, as one matching cycle sees it: what the matcher reads on every
 * visit, kept together in one small object made for the cycle (the run spec's own state is spread
 * over a large heap; at a million instances every object a visit loads is a likely cache miss).
 */
class Candidate {
  readonly queue: InstanceQueue;
  /** Resident run specs place through the resident launch (reservations and volumes). */
  readonly resident: boolean;
  /** The offer (matcher sequence number) this candidate was refused by: skipped for the rest of it. */
  failedSeq = 0;
  /** The offer it last placed on (an offer counts once as used, or once as unused, per run spec). */
  usedSeq = 0;
  /** Whether it is in the state's demandDirty set already (added at its first placement of the cycle). */
  demandMarked = false;
  private headVersion = -1;
  private request: LaunchRequest | undefined = undefined;

  constructor(readonly rs: RunSpecState) {
    this.queue = rs.scheduled;
    this.resident = rs.spec.resident;
  }

  /**
   * The launch request to match the head of the (non-empty) queue with; undefined for a resident
   * instance with a reservation (it waits for the offer of its reservation). Remembered while the
   * queue does not change: an instance of a non-resident run spec keeps its role and has no
   * reservation while it waits, so a head refused by offer after offer is not loaded again (at a
   * million instances, the queue's array and the instance are cache misses on every visit).
   */
  headRequest(): LaunchRequest | undefined {
    const version = this.queue.version;
    if (version === this.headVersion && !this.resident) return this.request;
    const next = this.queue.peek() as Instance;
    this.headVersion = version;
    this.request = next.reservation !== undefined ? undefined : requestFor(this.rs, next.role);
    return this.request;
  }
}

/** The candidates of one matching cycle, the fair cursor, and the smallest request among them. */
class Batch {
  candidates: Candidate[] = [];
  cursor = 0;
  drained = false;
  minCpusMilli = 0;
  minMemMilli = 0;

  constructor(ctx: LaunchContext, nowMs: number) {
    for (const rs of ctx.demand.wantingRunSpecs()) if (ctx.demand.wantsOffers(rs, nowMs)) this.candidates.push(new Candidate(rs));
    this.computeMinimum();
  }

  /** Forget candidates with nothing left to place (after an offer placed their last instance). */
  dropDrained(): void {
    if (!this.drained) return;
    this.drained = false;
    const next = this.cursor < this.candidates.length ? this.candidates[this.cursor] : undefined;
    this.candidates = this.candidates.filter((c) => c.queue.length > 0);
    const at = next === undefined ? -1 : this.candidates.indexOf(next);
    this.cursor = at < 0 ? 0 : at;
    this.computeMinimum();
  }

  private computeMinimum(): void {
    let cpus = Infinity;
    let mem = Infinity;
    for (const c of this.candidates) {
      cpus = Math.min(cpus, c.rs.request.resources.cpusMilli);
      mem = Math.min(mem, c.rs.request.resources.memMilli);
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
