import type { Offer, OfferedPool } from '../../scheduler/model/offer';
import { refuseFilterMs, RoleSuppression } from '../role-suppression';
import type { LocalAgent } from './local-agent';

/** An offer the framework holds; it may be used (accepted or declined) once. */
export interface OutstandingOffer {
  readonly offerId: string;
  readonly agentId: string;
  readonly pool: OfferedPool;
}

/**
 * The local allocator: at most one outstanding offer per agent, refuse filters per agent, and
 * suppression per role. Mirrors the simulated master's desk (without its virtual-time cycles):
 *
 * - A refuse filter (decline, or the unused rest of an accept) keeps the agent out of offers
 *   until it expires, a revive clears it, or resources are freed on the agent (Mesos filters only
 *   offers that are a subset of what was refused, §2.4 / §7.3).
 * - Suppression (§2.6, §2.7) is per role (`RoleSuppression`); the pool is unreserved. Revive
 *   also clears every refuse filter. Outstanding offers survive a suppress (§2.7).
 */
export class OfferDesk {
  private readonly outstanding = new Map<string, OutstandingOffer>();
  private readonly offerOfAgent = new Map<string, string>();
  private readonly filteredUntilMs = new Map<string, number>();
  private readonly roles = new RoleSuppression();
  private offerSeq = 0;

  constructor(private readonly agents: readonly LocalAgent[], private readonly offerIdPrefix: string) {}

  /** One allocation round: an offer for every eligible agent with something free, in agent id order. */
  makeOffers(nowMs: number, free: (agentId: string) => OfferedPool): Offer[] {
    if (!this.roles.unreservedOffered()) return [];
    const offers: Offer[] = [];
    for (const agent of this.agents) {
      if (this.offerOfAgent.has(agent.agentId) || (this.filteredUntilMs.get(agent.agentId) ?? 0) > nowMs) continue;
      const pool = free(agent.agentId);
      if (isEmpty(pool)) continue;
      const offerId = `${this.offerIdPrefix}-O${++this.offerSeq}`;
      this.outstanding.set(offerId, { offerId, agentId: agent.agentId, pool });
      this.offerOfAgent.set(agent.agentId, offerId);
      offers.push({ offerId, agent: agent.info, pools: [pool] });
    }
    return offers;
  }

  /** Use an outstanding offer (accept or decline); undefined when it is unknown or already used. */
  take(offerId: string): OutstandingOffer | undefined {
    const offer = this.outstanding.get(offerId);
    if (offer === undefined) return undefined;
    this.outstanding.delete(offerId);
    this.offerOfAgent.delete(offer.agentId);
    return offer;
  }

  /** Filter the agent for `refuseMs` (0: no filter; negative: 5 s; capped at 365 days). */
  refuse(agentId: string, refuseMs: number, nowMs: number): void {
    const ms = refuseFilterMs(refuseMs);
    if (ms > 0) this.filteredUntilMs.set(agentId, nowMs + ms);
    else this.filteredUntilMs.delete(agentId);
  }

  /** Resources were freed on the agent: the old filter no longer covers what it has (§7.3). */
  resourcesFreed(agentId: string): void {
    this.filteredUntilMs.delete(agentId);
  }

  /** Roles named by the framework in an accepted launch. */
  knowRoles(roles: readonly string[]): void {
    this.roles.know(roles);
  }

  /** REVIVE: un-suppress `roles` (all when empty) and clear every refuse filter. */
  revive(roles: readonly string[]): void {
    this.roles.revive(roles);
    this.filteredUntilMs.clear();
  }

  /** SUPPRESS: no new offers for `roles` (all when empty); outstanding offers stay. */
  suppress(roles: readonly string[]): void {
    this.roles.suppress(roles);
  }

  /** Forget every outstanding offer (the driver stopped: offers die with the subscription, §7.2). */
  clear(): void {
    this.outstanding.clear();
    this.offerOfAgent.clear();
  }
}

function isEmpty(p: OfferedPool): boolean {
  return p.cpusMilli <= 0 && p.memMilli <= 0 && p.diskMilli <= 0 && p.gpus <= 0 && p.ports.length === 0;
}
