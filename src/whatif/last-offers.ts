import type { AgentInfo } from '../scheduler/model/agent';
import type { SchedulerInput } from '../scheduler/model/inputs';
import type { OfferedPool } from '../scheduler/model/offer';

/** The last offer the core was given for one agent, and when. */
export interface LastOffer {
  readonly agent: AgentInfo;
  readonly pools: readonly OfferedPool[];
  /** The instant the core handled it (epoch ms). */
  readonly atMs: number;
}

/**
 * The last offer seen per agent (issue 18: a what-if fork builds its agents from them): a loop
 * observer (`RealTimeLoop.observe`, the input hook; the simulated run's `onInput`) that remembers,
 * for every agent, the latest offer handed to the core — its identity, attributes and free
 * resources per pool — and forgets an agent when the cluster reports it lost. Read-only to
 * everyone else ({@link all}). Holds one offer per agent, so its size is bounded by the cluster.
 */
export class LastOffers {
  private readonly byAgent = new Map<string, LastOffer>();

  /** The loop observer hook: called before the core handles `input` at `atMs`. */
  beforeInput(atMs: number, input: SchedulerInput): void {
    if (input.type === 'offers') {
      for (const offer of input.offers) this.byAgent.set(offer.agent.agentId, { agent: offer.agent, pools: offer.pools, atMs });
    } else if (input.type === 'agentLost') {
      this.byAgent.delete(input.agentId);
    }
  }

  /** Every agent's last offer, in agent id order. */
  all(): readonly LastOffer[] {
    return [...this.byAgent.values()].sort((a, b) => (a.agent.agentId < b.agent.agentId ? -1 : a.agent.agentId > b.agent.agentId ? 1 : 0));
  }

  get size(): number {
    return this.byAgent.size;
  }
}
