import type { Offer, OfferedPool } from '../scheduler/model/offer';
import type { MasterClock, MasterOutbox } from './master-ports';
import type { MasterAgent } from './master-types';
import { refuseFilterMs } from './refuse-filter';
import { RoleSuppression } from './role-suppression';

/** An offer the framework holds: it may accept or decline it once, until it is rescinded. */
export interface OutstandingOffer {
  readonly offerId: string;
  readonly agent: MasterAgent;
  readonly pools: readonly OfferedPool[];
}

/**
 * The master model's allocator, the one offer desk of pacer's clusters: which agent's free
 * resources are offered, when, under which ids. Keeps the agents that may be offered in the next
 * cycle (`candidates`), the eligible agents with nothing to offer (`idle`), refuse filters,
 * per-role suppression and the outstanding offers. An agent has at most one outstanding offer,
 * holding all its free resources (one pool per reservation) — Mesos offers an agent's resources
 * to one framework at a time, and pacer is the only framework.
 *
 * Cost: a cycle touches only candidate agents; agents enter the candidate set when something about
 * them changes (offer used or rescinded, filter expired, resources freed, revive, reconnect), and
 * a cycle is scheduled only while there are candidates. Cycles stay on the grid
 * `start + k × offerIntervalMs`, so skipping empty cycles changes nothing observable.
 *
 * Refuse filters are grouped by the instant they run out: one timer per instant, not per agent.
 * A batch of offers declined together (a thousand agents, every time the framework has nothing to
 * launch) costs one timer, and a revive, which clears every filter, cancels a few timers instead
 * of a thousand. The agents of an instant expire together, in the order they were filtered.
 *
 * Suppression (mesos-v1-scheduler-api.md §2.6, §2.7): per role. A reserved pool is offered unless its role is
 * suppressed; the unreserved pool is offered while some role the framework has named (in revive,
 * suppress or an accepted launch) is unsuppressed — or, before it named any, unless it suppressed
 * everything. `suppress([])` suppresses every role, `revive([])` revives every role. Revive also
 * clears every refuse filter (the model keeps one filter per agent, not per role and shape).
 */
export class OfferDesk {
  private readonly candidates = new Set<MasterAgent>();
  private readonly idle = new Set<MasterAgent>();
  private readonly filtered = new Set<MasterAgent>();
  /** Filtered agents by the instant their filter runs out, each instant with its one timer. */
  private readonly filterGroups = new Map<number, { readonly timer: number; readonly agents: Set<MasterAgent> }>();
  private readonly outstanding = new Map<string, OutstandingOffer>();
  private readonly roles = new RoleSuppression();
  private unreservedOffered = true;
  private started = false;
  /** The framework is subscribed (§1.8: a disconnected framework is deactivated and gets no offers). */
  private active = true;
  private cycleTimer: number | undefined;
  private lastCycleMs: number | undefined;
  private offerSeq = 0;

  constructor(
    private readonly ctx: MasterClock,
    private readonly outbox: MasterOutbox,
    private readonly intervalMs: number,
    private readonly offerIdOf: (n: number) => string,
  ) {
    if (!(intervalMs > 0)) throw new RangeError(`offerIntervalMs must be positive, got ${intervalMs}`);
  }

  /** Begin allocating: the first cycle runs now. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.cycleTimer = this.ctx.schedule(this.ctx.nowMs(), { kind: 'offerCycle' });
  }

  /** One allocation round: offer every candidate with something to offer, in agentId order. */
  runCycle(): void {
    this.cycleTimer = undefined;
    this.lastCycleMs = this.ctx.nowMs();
    if (this.candidates.size === 0 || !this.active) return;
    const agents = [...this.candidates].sort(byAgentId);
    this.candidates.clear();
    const offers: Offer[] = [];
    for (const agent of agents) {
      const pools = this.offerablePools(agent);
      if (pools.length === 0) {
        this.idle.add(agent);
        continue;
      }
      const offerId = this.offerIdOf(++this.offerSeq);
      agent.offerId = offerId;
      this.outstanding.set(offerId, { offerId, agent, pools });
      offers.push({ offerId, agent: agent.info, pools });
    }
    if (offers.length > 0) this.outbox.offers(offers);
  }

  /**
   * An allocation round now, off the grid (the local cluster asks for one after a revive and when
   * its launcher runs out of work: a Mesos master allocates at once after a revive). The next
   * rounds keep `offerIntervalMs` from this one.
   */
  allocateNow(): void {
    if (!this.started) return;
    if (this.cycleTimer !== undefined) this.ctx.cancel(this.cycleTimer);
    this.runCycle();
  }

  /** Take an outstanding offer for an accept or decline; undefined if it is not outstanding. */
  take(offerId: string): OutstandingOffer | undefined {
    const offer = this.outstanding.get(offerId);
    if (offer === undefined) return undefined;
    this.outstanding.delete(offerId);
    offer.agent.offerId = undefined;
    return offer;
  }

  /** After an offer was used or declined: filter the agent for `refuseMs` (0: no filter). */
  refuse(agent: MasterAgent, refuseMs: number): void {
    const ms = refuseFilterMs(refuseMs);
    this.clearFilter(agent);
    if (ms > 0) {
      const untilMs = this.ctx.nowMs() + ms;
      let group = this.filterGroups.get(untilMs);
      if (group === undefined) {
        group = { timer: this.ctx.schedule(untilMs, { kind: 'filterExpired', dueMs: untilMs }), agents: new Set() };
        this.filterGroups.set(untilMs, group);
      }
      group.agents.add(agent);
      agent.filteredUntilMs = untilMs;
      this.filtered.add(agent);
    }
    this.agentChanged(agent);
  }

  /** The refuse filters that run out at `dueMs` ran out (their timer fired), in the order they were set. */
  filtersExpired(dueMs: number): void {
    const group = this.filterGroups.get(dueMs);
    if (group === undefined) return;
    this.filterGroups.delete(dueMs);
    for (const agent of group.agents) {
      agent.filteredUntilMs = undefined;
      this.filtered.delete(agent);
      this.agentChanged(agent);
    }
  }

  /** Drop the agent's refuse filter, if any (its instant's timer goes when no agent is left in it). */
  private clearFilter(agent: MasterAgent): void {
    const untilMs = agent.filteredUntilMs;
    if (untilMs === undefined) return;
    agent.filteredUntilMs = undefined;
    this.filtered.delete(agent);
    const group = this.filterGroups.get(untilMs);
    if (group === undefined) return;
    group.agents.delete(agent);
    if (group.agents.size === 0) {
      this.ctx.cancel(group.timer);
      this.filterGroups.delete(untilMs);
    }
  }

  /** Rescind the agent's outstanding offer, if any (posts `rescind`). */
  rescind(agent: MasterAgent): void {
    const offerId = agent.offerId;
    if (offerId !== undefined) {
      this.outstanding.delete(offerId);
      agent.offerId = undefined;
      this.outbox.rescind(offerId);
    }
    this.agentChanged(agent);
  }

  /**
   * The framework's subscription broke (mesos-v1-scheduler-api.md §1.8): it is deactivated — no
   * offers until it subscribes again — and its outstanding offers are discarded without a RESCIND
   * (there is no one to send it to); their agents are offered again once it is back.
   */
  deactivate(): void {
    this.active = false;
    for (const offer of [...this.outstanding.values()]) {
      this.outstanding.delete(offer.offerId);
      offer.agent.offerId = undefined;
      this.agentChanged(offer.agent);
    }
  }

  /**
   * The framework subscribed again (§1.8): offers resume from the next round on the grid. Its
   * SUBSCRIBE replaces the suppression state; a restarted scheduler restates none, so every role
   * is offered again and refuse filters are cleared (the model keeps one filter per agent, not one
   * per role), as a REVIVE of every role does.
   */
  activate(): void {
    if (this.active) return;
    this.active = true;
    this.revive([]);
    this.ensureCycle();
  }

  /** Rescind every outstanding offer, oldest first. */
  rescindAll(): void {
    for (const offer of [...this.outstanding.values()]) this.rescind(offer.agent);
  }

  /** Something about the agent's eligibility changed (phase, offer, filter): re-sort it. */
  agentChanged(agent: MasterAgent): void {
    const eligible = agent.phase === 'connected' && !agent.dead && agent.offerId === undefined && agent.filteredUntilMs === undefined;
    if (!eligible) {
      this.candidates.delete(agent);
      this.idle.delete(agent);
      return;
    }
    if (this.idle.has(agent)) return;
    this.candidates.add(agent);
    this.ensureCycle();
  }

  /** The agent is removed for good: drop its filter and forget it. */
  removeAgent(agent: MasterAgent): void {
    this.rescind(agent);
    this.clearFilter(agent);
    this.candidates.delete(agent);
    this.idle.delete(agent);
  }

  /**
   * Resources were freed on the agent: an idle agent may have something to offer again, and a
   * refuse filter no longer applies — Mesos filters only offers whose resources are a subset of
   * what was declined (mesos-v1-scheduler-api.md §7.3), and the agent now has more than that.
   */
  resourcesFreed(agent: MasterAgent): void {
    this.clearFilter(agent);
    this.idle.delete(agent);
    this.agentChanged(agent);
  }

  /** Roles named by the framework in an accepted launch. */
  knowRoles(roles: readonly string[]): void {
    if (this.roles.know(roles)) this.suppressionChanged();
  }

  /** REVIVE: un-suppress `roles` (all when empty) and clear every refuse filter. */
  revive(roles: readonly string[]): void {
    this.roles.revive(roles);
    const wasFiltered = [...this.filtered];
    for (const group of this.filterGroups.values()) this.ctx.cancel(group.timer);
    this.filterGroups.clear();
    for (const agent of wasFiltered) agent.filteredUntilMs = undefined;
    this.filtered.clear();
    for (const agent of wasFiltered) this.agentChanged(agent);
    this.suppressionChanged();
  }

  /** SUPPRESS: stop offering `roles` (all when empty). Outstanding offers stay (§2.7). */
  suppress(roles: readonly string[]): void {
    this.roles.suppress(roles);
    this.unreservedOffered = this.roles.unreservedOffered();
  }

  /** Whether the framework currently gets offers of resources reserved for `role`. */
  isSuppressed(role: string): boolean {
    return this.roles.isSuppressed(role);
  }

  /** An outstanding offer, without taking it. */
  offer(offerId: string): OutstandingOffer | undefined {
    return this.outstanding.get(offerId);
  }

  /** Offers currently held by the framework, oldest first. */
  outstandingOffers(): readonly OutstandingOffer[] {
    return [...this.outstanding.values()];
  }

  private suppressionChanged(): void {
    this.unreservedOffered = this.roles.unreservedOffered();
    if (this.idle.size === 0) return;
    const woken = [...this.idle];
    this.idle.clear();
    for (const agent of woken) this.agentChanged(agent);
  }


  private offerablePools(agent: MasterAgent): OfferedPool[] {
    const out: OfferedPool[] = [];
    for (const pool of agent.ledger.available()) {
      if (pool.reservedFor === undefined ? !this.unreservedOffered : this.isSuppressed(pool.reservedFor)) continue;
      if (isEmpty(pool)) continue;
      out.push(pool);
    }
    return out;
  }

  private ensureCycle(): void {
    if (!this.started || !this.active || this.cycleTimer !== undefined || this.candidates.size === 0) return;
    const now = this.ctx.nowMs();
    const last = this.lastCycleMs;
    let due = now;
    if (last !== undefined) {
      const k = Math.max(1, Math.ceil((now - last) / this.intervalMs));
      due = last + k * this.intervalMs;
    }
    this.cycleTimer = this.ctx.schedule(due, { kind: 'offerCycle' });
  }
}

function isEmpty(p: OfferedPool): boolean {
  return p.cpusMilli <= 0 && p.memMilli <= 0 && p.diskMilli <= 0 && p.gpus <= 0 && p.ports.length === 0;
}

function byAgentId(a: MasterAgent, b: MasterAgent): number {
  const x = a.agentId;
  const y = b.agentId;
  return x < y ? -1 : x > y ? 1 : 0;
}
