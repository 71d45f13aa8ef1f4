import type { LaunchContext } from '../launch-queue/launch-context';
import type { WantingRunSpec } from '../launch-queue/offer-demand';
import type { Instance } from '../model/instance';
import type { OfferOperation } from '../model/launch';
import type { Offer } from '../model/offer';
import type { InstanceQueue } from '../state/instance-queue';
import type { LaunchRequest } from '../state/launch-request';
import type { RunSpecState } from '../state/run-spec-state';
import type { RunSpec } from '../model/run-spec';
import { reasonIndex, type RejectionStats } from '../state/rejection-stats';
import { OfferUseLog, USED_OFFER } from './offer-use-log';
import type { FilterPlugin } from './filter-plugin';
import type { NoMatchReason } from '../model/no-match-reason';
import type { PlacementCounts } from '../constraints/placement-counts';
import { VALUE_IDS } from '../constraints/value-ids';
import { OfferLedger } from './offer-ledger';
import { RequestFilters } from './pipeline';
import { requestKey } from './request-key';
import { reserve } from './reserve';
import { placeInstance } from '../launcher/place-instance';
import { flushInstances } from '../instances/instance-tracker';
import { firstResidentLaunch, residentOperations, type ResidentOutcome } from '../launcher/resident-offers';
import { requestFor } from './request-for-role';
import { agentInMaintenance, MAINTENANCE_REASON } from './maintenance';
import { assert } from '../kernel/assert';

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
  /** The specialised filters by request kind ({@link Batch.filtersFor}), kept between cycles (bounded: {@link SHARED_FILTERS_PER_CANDIDATE}). */
  private readonly shared = new Map<string, RequestFilters>();
  /** What each call did with each offer, folded into the statistics before the call returns (offer-use-log.ts). */
  private readonly log = new OfferUseLog();

  constructor(private readonly plugins: readonly FilterPlugin[]) {}

  /** Matches `offers` placing at most `budget` instances; returns how many it placed and the offers it did not get to. */
  match(ctx: LaunchContext, offers: readonly Offer[], budget: number): MatchOutcome {
    const nowMs = ctx.clock.nowMs();
    // No check or count is half done here: the value registry may start over (its bound). Then
    // every run spec's counters intern their values again at once, so none keeps the old numbering.
    if (VALUE_IDS.startOverIfFull()) for (const rs of ctx.state.runSpecs.values()) rs.counts.renumber();
    const batch = new Batch(ctx, nowMs, this.plugins, this.shared, this.log);
    const declined: string[] = [];
    const rest: Offer[] = [];
    const allowed = budget;
    for (const offer of offers) {
      if (budget <= 0 && batch.candidates.length > 0) {
        rest.push(offer);
        continue;
      }
      // Maintenance mode: an agent in (or about to enter) its window launches nothing (maintenance.ts).
      const maintenance = agentInMaintenance(offer, nowMs, ctx.options);
      let resident: ResidentOutcome | undefined;
      if (hasReservations(offer)) {
        resident = residentOperations(ctx, offer, nowMs, maintenance);
        // It may have taken instances out of queues.
        batch.resync();
        // A resident instance left waiting on its reservation here: the offer is refused for its run spec, once.
        for (const rs of resident.leftForMaintenance) batch.rejectedRunSpec(rs, MAINTENANCE_REASON, offer);
      }
      // The resident pass's operations first, then one or more per instance placed, in order.
      const ops: OfferOperation[] = resident === undefined ? [] : resident.ops.slice();
      const counted = resident === undefined || resident.leftForMaintenance.size === 0 ? undefined : resident.leftForMaintenance;
      const placed = batch.candidates.length === 0 ? 0 : this.matchOne(ctx, offer, batch, budget, ops, maintenance, counted);
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
    // Every reader of the statistics is outside this call: they read them exact.
    this.log.fold(nowMs);
    batch.endCycle(ctx);
    if (declined.length > 0) ctx.driver.decline(declined, ctx.options.declineRefuseMs);
    return { placed: allowed - budget, rest };
  }

  /**
   * Places what fits of the candidates on `offer`, appending their operations to `ops`; returns how
   * many it placed. `maintenance`: the maintenance rule's verdict on the offer (the ledger carries
   * it to the maintenance filter). `counted`: run specs whose refusal of this offer is recorded
   * already (by the resident pass), not recorded again.
   */
  private matchOne(
    ctx: LaunchContext, offer: Offer, batch: Batch, budget: number, ops: OfferOperation[],
    maintenance: boolean, counted: ReadonlySet<RunSpecState> | undefined,
  ): number {
    // The cycle's offer number marks both refusals (`failed`, a new array per cycle) and use (`usedSeq`, reset by Candidate.begin).
    const seq = ++batch.offerSeq;
    const ledger = new OfferLedger(offer, maintenance);
    const max = Math.min(ctx.options.maxInstancesPerOffer, budget);
    const candidates = batch.candidates;
    // What every visit reads, in typed arrays indexed like `candidates` (see Batch): a visit that
    // skips a candidate loads no object.
    const failed = batch.failed;
    const left = batch.left;
    const known = batch.known;
    const n = candidates.length;
    let progress = true;
    while (progress && ledger.placed < max) {
      progress = false;
      const start = batch.cursor;
      for (let k = 0; k < n && ledger.placed < max; k++) {
        const i = (start + k) % n;
        if (failed[i] === seq || left[i] === 0) continue;
        const c = candidates[i];
        if (known[i] === 0) {
          c.refresh(batch);
          // A resident run spec's head is looked at on every visit (its role and reservation vary).
          if (!c.resident) known[i] = 1;
        }
        const filters = c.filters;
        if (filters === undefined) {
          // Every waiting instance holds a reservation and relaunches only on it (resident-offers.ts):
          // this offer has none of them, as Marathon's resident matching says
          // (InstanceOpFactoryImpl.inferForResidents: NoCorrespondingReservationFound).
          failed[i] = seq;
          if (c.usedSeq !== seq && (counted === undefined || !counted.has(c.rs))) batch.rejected(c, NO_RESERVATION_REASON, offer);
          continue;
        }
        const reason = filters.run(ledger, c.counts);
        if (reason !== undefined) {
          failed[i] = seq;
          if (c.usedSeq !== seq && (counted === undefined || !counted.has(c.rs))) batch.rejected(c, reason, offer);
          continue;
        }
        const rs = c.rs;
        if (c.uniform && (c.queue.peek() as Instance).reservation !== undefined) {
          // A reservation left from when the run spec was resident: it waits for its own offer
          // (refresh gives it no filters), as it would have had its head been read earlier.
          c.uniform = false;
          c.refresh(batch);
          continue;
        }
        // A uniform queue places its head; another its first instance without a reservation ({@link Candidate.next}).
        const inst = c.uniform ? c.queue.shift() as Instance : c.takeNext();
        // A uniform queue's next head takes the same filters: it is not read until it is placed.
        if (!c.uniform) known[i] = 0;
        if (c.resident && !c.demandMarked) {
          // Its queue changed, and with it the roles it wants: the demand looks at it again after
          // this input (once per batch is enough). Others are told at the end of the cycle (Batch.endCycle).
          ctx.state.demandDirty.add(rs);
          c.demandMarked = true;
        }
        if (c.usedSeq !== seq) {
          c.usedSeq = seq;
          batch.used(c);
        }
        const res = reserve(filters.request, ledger);
        if (c.resident) for (const op of firstResidentLaunch(ctx, rs, inst, offer, res)) ops.push(op);
        else ops.push(placeInstance(ctx, rs, inst, offer, res));
        left[i] = c.queue.length;
        progress = true;
        batch.cursor = (i + 1) % n;
        if (left[i] === 0) batch.drained = true;
        if (ledger.cannotHold(batch.minCpusMilli, batch.minMemMilli)) return ledger.placed;
      }
    }
    return ledger.placed;
  }
}

/**
 * One run spec that wants offers, as the matching cycles see it: what the matcher reads when it
 * filters it, kept together in one small object (the run spec's own state is spread over a large
 * heap; at a million instances every object a visit loads is a likely cache miss). Made once per
 * run spec definition, request and counters ({@link fits}) and kept between cycles; {@link begin} resets what
 * belongs to one cycle.
 */
class Candidate {
  readonly rs: RunSpecState;
  readonly queue: InstanceQueue;
  /** Resident run specs place through the resident launch (reservations and volumes). */
  readonly resident: boolean;
  /** The run spec's placement counters (replaced only when its definition changes, never during a cycle). */
  readonly counts: PlacementCounts;
  /** The run spec's offer statistics. */
  readonly stats: RejectionStats;
  /** The offer it last placed on (an offer counts once as used, or once as unused, per run spec). */
  usedSeq = 0;
  /** Its statistics' slot in a matcher's log ({@link slotIn}), that log, and the log table's generation it is of. */
  private slot = -1;
  private slotLog: OfferUseLog | undefined = undefined;
  private slotGeneration = -1;
  /** Offers it used in this cycle. */
  usedOffers = 0;
  /** A resident candidate: whether it is in the state's demandDirty set already (added at its first placement of the cycle). */
  demandMarked = false;
  /** The filters for the head of its queue (shared with the candidates whose requests are alike); undefined: skip it. */
  filters: RequestFilters | undefined = undefined;
  /**
   * Every waiting instance takes the run spec's own request: the run spec is not resident and all
   * its instances run under its role (`instanceRoles`), so no head needs reading to choose its
   * filters (a new head is read when it is placed, where a left-over reservation is caught).
   */
  uniform = false;
  /**
   * The instance {@link filters} are for, unless {@link uniform}: the first waiting instance
   * without a reservation ({@link refresh}); undefined when every one holds a reservation.
   */
  private next: Instance | undefined = undefined;
  private headVersion = -1;
  private request: LaunchRequest | undefined = undefined;
  /** The run spec's own launch request (what requestFor gives for an instance of its role), read once. */
  readonly ownRequest: LaunchRequest;
  /** The definition it was made for: another one (even with the same residency) makes a new candidate. */
  private readonly spec: RunSpec;
  /** The own request's cpus and memory (Batch.computeMinimum reads them without loading the request). */
  readonly cpusMilli: number;
  readonly memMilli: number;

  constructor(readonly entry: WantingRunSpec) {
    const rs = entry.rs;
    this.rs = rs;
    this.queue = rs.scheduled;
    this.spec = rs.spec;
    this.resident = rs.spec.resident;
    this.counts = rs.counts;
    this.stats = rs.rejections;
    this.ownRequest = rs.request;
    this.cpusMilli = rs.request.resources.cpusMilli;
    this.memMilli = rs.request.resources.memMilli;
  }

  /** Its statistics' slot in `log` (OfferUseLog.slotOf), asked for again when the log's table started over: an append reads nothing of the statistics. */
  slotIn(log: OfferUseLog): number {
    // The log too: a slot of another matcher's log, at the same generation, would name other statistics.
    if (this.slotLog !== log || this.slotGeneration !== log.generation) {
      this.slot = log.slotOf(this.stats);
      this.slotLog = log;
      this.slotGeneration = log.generation;
    }
    return this.slot;
  }

  /** Takes {@link next} (there is one while {@link filters} are set) out of the queue, to place it. */
  takeNext(): Instance {
    const inst = this.next;
    if (inst === undefined) assert(false, `run spec ${this.rs.spec.id}: no waiting instance to place`);
    this.queue.take(inst);
    return inst;
  }

  /**
   * Whether this candidate still describes `rs` (its request, counters and definition are the
   * ones it read). The definition is compared by identity, which loads no more than `rs` itself
   * (reading its residency loaded the definition: one more cache miss per run spec and cycle).
   */
  fits(rs: RunSpecState): boolean {
    return rs.request === this.ownRequest && rs.counts === this.counts && rs.spec === this.spec;
  }

  /** Starts a cycle: nothing used or refused, not in the demand's dirty set, {@link uniform} read again unless it holds. */
  begin(): void {
    this.usedSeq = 0;
    this.usedOffers = 0;
    this.demandMarked = false;
    // Once uniform, it stays so while the request is this one: a non-resident run spec's instances
    // take only its role, which changes only with a new request (then a new candidate).
    if (!this.uniform && !this.resident) {
      const roles = this.rs.instanceRoles;
      this.uniform = roles.size === 1 && roles.has(this.ownRequest.role);
    }
  }

  /**
   * Looks at the head of the (non-empty) queue again: the launch request to match it with, and its
   * filters; no filters for a resident instance with a reservation (it waits for the offer of its
   * reservation). The request is remembered while the queue does not change: an instance of a
   * non-resident run spec keeps its role and has no reservation while it waits, so a head refused
   * by offer after offer is not loaded again (at a million instances, the queue's array and the
   * instance are cache misses on every visit). A {@link uniform} candidate reads no head at all:
   * its request is the run spec's own whatever the head (after each placement the next head would
   * otherwise be loaded once here and once more when it is placed, by then evicted again).
   */
  refresh(batch: Batch): void {
    if (this.uniform) {
      if (this.request !== this.ownRequest) {
        this.request = this.ownRequest;
        this.filters = batch.filtersFor(this.ownRequest);
      }
      return;
    }
    const version = this.queue.version;
    if (version === this.headVersion && !this.resident) return;
    // An instance that holds a reservation waits for the offer of it (the resident pass) and holds
    // back none queued after it: Marathon reserves for any scheduled instance without a
    // reservation (InstanceOpFactoryImpl.maybeReserveAndCreateVolumes: `find(!_.hasReservation)`),
    // so a resident app whose agent is gone still places the instances of a scale-up elsewhere.
    const next = this.queue.find(holdsNoReservation);
    this.next = next;
    this.headVersion = version;
    const request = next === undefined ? undefined : next.role === this.ownRequest.role ? this.ownRequest : requestFor(this.rs, next.role);
    if (request === this.request) return;
    this.request = request;
    this.filters = request === undefined ? undefined : batch.filtersFor(request);
  }
}

/**
 * The candidates of one matching cycle, the fair cursor, and the smallest request among them.
 * Beside `candidates`, what every visit reads is kept in typed arrays with the same indices, so
 * that the round over a thousand candidates per offer does not load a thousand objects: `left`
 * mirrors each queue's length (only the matcher shifts queues during a cycle; the resident pass,
 * which may take instances out, is followed by {@link resync}), `failed` the offer (batch
 * sequence number) that refused it, `known` whether its `filters` are those of its queue's head.
 */
class Batch {
  candidates: Candidate[] = [];
  failed = new Int32Array(0);
  left = new Int32Array(0);
  known = new Uint8Array(0);
  cursor = 0;
  drained = false;
  minCpusMilli = 0;
  minMemMilli = 0;
  /** Offers matched so far in this cycle (the `failed` marks and candidates' `usedSeq`). */
  offerSeq = 0;
  /** The candidates that used an offer in this cycle, in the order they first did. */
  private readonly usedList: Candidate[] = [];

  /**
   * Each run spec's candidate is kept from cycle to cycle on the demand's entry of the run spec
   * (`WantingRunSpec.matcherState`: read without a lookup, gone when the run spec stops wanting
   * offers) while its request, counters and definition stay the same objects
   * ({@link Candidate.fits}): a cycle places a couple of thousand instances among a thousand
   * candidates, so making and reading them all again each cycle was a cost per placement.
   */
  constructor(
    ctx: LaunchContext, private readonly nowMs: number, private readonly plugins: readonly FilterPlugin[],
    private readonly shared: Map<string, RequestFilters>, private readonly offerLog: OfferUseLog,
  ) {
    for (const entry of ctx.demand.wantingEntries()) {
      const rs = entry.rs;
      // Wanting offers only to release a reservation is no leave to launch (in backoff, deleting).
      if (!ctx.demand.mayLaunch(rs, nowMs)) continue;
      // Only this class puts anything there.
      let c = entry.matcherState as Candidate | undefined;
      if (c === undefined || !c.fits(rs)) {
        c = new Candidate(entry);
        entry.matcherState = c;
      }
      c.begin();
      this.candidates.push(c);
    }
    // The kinds of request of run specs gone or changed stay in the map until it is a few times
    // larger than needed; then it starts over (a kept candidate keeps its filters, which stay right).
    if (shared.size > SHARED_FILTERS_PER_CANDIDATE * this.candidates.length + SHARED_FILTERS_MIN) shared.clear();
    this.index();
    this.computeMinimum();
  }

  /** The specialised filters for `request`, one object per kind of request ({@link requestKey}) in this cycle. */
  filtersFor(request: LaunchRequest): RequestFilters {
    const key = requestKey(request);
    let filters = this.shared.get(key);
    if (filters === undefined) {
      filters = new RequestFilters(this.plugins, request);
      this.shared.set(key, filters);
    }
    return filters;
  }

  /**
   * `offer` was not used by `c` for `reason`: appended to the matcher's log, folded into the run
   * spec's statistics before the call returns (offer-use-log.ts: a refusal loads none of the
   * statistics' objects, scattered over the heap).
   */
  rejected(c: Candidate, reason: NoMatchReason, offer: Offer): void {
    this.offerLog.appendSlot(c.slotIn(this.offerLog), reasonIndex(reason), offer, this.nowMs);
  }

  /** As {@link rejected}, for a run spec the resident pass refused the offer for (it may have no candidate). */
  rejectedRunSpec(rs: RunSpecState, reason: NoMatchReason, offer: Offer): void {
    this.offerLog.append(rs.rejections, reasonIndex(reason), offer, this.nowMs);
  }

  /** `c` used an offer (its first use of this offer): logged as a refusal is ({@link rejected}). */
  used(c: Candidate): void {
    if (c.usedOffers++ === 0) this.usedList.push(c);
    this.offerLog.appendSlot(c.slotIn(this.offerLog), USED_OFFER, undefined, this.nowMs);
  }

  /**
   * Tells the offer demand of the non-resident run specs that placed in this cycle: the count of
   * one that still has instances waiting (`OfferDemand.notePlaced`), the others are marked dirty
   * (drained: it may stop wanting offers). Call once, at the end of the cycle.
   */
  endCycle(ctx: LaunchContext): void {
    for (const c of this.usedList) {
      c.usedOffers = 0;
      if (c.resident) continue;
      if (c.queue.length > 0) ctx.demand.notePlaced(c.entry);
      else ctx.state.demandDirty.add(c.rs);
    }
    this.usedList.length = 0;
  }

  /** Reads every queue again (after something other than the matcher may have changed them). */
  resync(): void {
    for (let i = 0; i < this.candidates.length; i++) {
      this.left[i] = this.candidates[i].queue.length;
      this.known[i] = 0;
    }
  }

  /** Forget candidates with nothing left to place (after an offer placed their last instance). */
  dropDrained(): void {
    if (!this.drained) return;
    this.drained = false;
    const next = this.cursor < this.candidates.length ? this.candidates[this.cursor] : undefined;
    const kept: Candidate[] = [];
    const known: number[] = [];
    this.candidates.forEach((c, i) => {
      if (c.queue.length === 0) return;
      kept.push(c);
      known.push(this.known[i]);
    });
    this.candidates = kept;
    this.index();
    this.known.set(known);
    const at = next === undefined ? -1 : this.candidates.indexOf(next);
    this.cursor = at < 0 ? 0 : at;
    this.computeMinimum();
  }

  /** New typed arrays for `candidates`: no marks, each queue's length, heads not looked at. */
  private index(): void {
    const n = this.candidates.length;
    this.failed = new Int32Array(n);
    this.left = new Int32Array(n);
    this.known = new Uint8Array(n);
    for (let i = 0; i < n; i++) this.left[i] = this.candidates[i].queue.length;
  }

  private computeMinimum(): void {
    let cpus = Infinity;
    let mem = Infinity;
    for (const c of this.candidates) {
      cpus = Math.min(cpus, c.cpusMilli);
      mem = Math.min(mem, c.memMilli);
    }
    this.minCpusMilli = cpus;
    this.minMemMilli = mem;
  }
}

/**
 * The specialised filters kept between cycles ({@link OfferMatcher}) are dropped once there are
 * more kinds than this many per candidate of a cycle plus {@link SHARED_FILTERS_MIN} (docs/limits.md).
 */
export const SHARED_FILTERS_PER_CANDIDATE = 4;
export const SHARED_FILTERS_MIN = 64;

/** What one {@link OfferMatcher.match} call did: instances placed, offers left unexamined (the budget ran out). */
export interface MatchOutcome {
  readonly placed: number;
  readonly rest: readonly Offer[];
}

function holdsNoReservation(inst: Instance): boolean {
  return inst.reservation === undefined;
}

const NO_RESERVATION_REASON: NoMatchReason = 'NoCorrespondingReservationFound';

function hasReservations(offer: Offer): boolean {
  for (const p of offer.pools) if (p.reservationId !== undefined) return true;
  return false;
}
