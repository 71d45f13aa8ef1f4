import { isoTime, type RejectionStats, type UnusedOffer } from '../../scheduler/index';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../scheduler/model/no-match-reason';
import type { Offer } from '../../scheduler/model/offer';
import { fromMilli } from '../../scheduler/model/resources';
import { agentAttributesJson, numberRangesJson } from './agent-attributes-json';

/**
 * Marathon's `processedOffersSummary` of a queue entry (fact 90): offers processed and unused,
 * when the last used / unused offer was seen (left out until there was one), and two reject
 * summaries over Marathon's reason funnel (every reason, in funnel order, each with the offers
 * that reached that check (`processed`) and the offers it turned down (`declined`)):
 * - `rejectSummaryLastOffers`: over the last unused offer of each agent;
 * - `rejectSummaryLaunchAttempt`: over every offer processed for the run spec.
 */
export function processedOffersSummaryJson(stats: RejectionStats): Record<string, unknown> {
  const lastOffers = lastUnusedPerAgent(stats);
  const json: Record<string, unknown> = {
    processedOffersCount: stats.processedOffers,
    unusedOffersCount: stats.unusedOffers,
  };
  if (stats.lastUnusedOfferAtMs !== undefined) json.lastUnusedOfferAt = isoTime(stats.lastUnusedOfferAtMs);
  if (stats.lastUsedOfferAtMs !== undefined) json.lastUsedOfferAt = isoTime(stats.lastUsedOfferAtMs);
  json.rejectSummaryLastOffers = funnel(lastOffers.length, countReasons(lastOffers));
  json.rejectSummaryLaunchAttempt = funnel(stats.processedOffers, stats.byReason());
  return json;
}

/**
 * `lastUnusedOffers` (`?embed=lastUnusedOffers`): the last unused offer of each agent, oldest first,
 * as Marathon's RAML `UnusedOffer` (raml/QueueInfoConversion.scala `unusedOfferWrites`):
 * `{offer:{id, hostname, agentId, resources, attributes}, reason:[…], timestamp}`.
 */
export function lastUnusedOffersJson(stats: RejectionStats): Record<string, unknown>[] {
  return lastUnusedPerAgent(stats).map((o) => ({
    offer: offerJson(o.offer),
    reason: [o.reason],
    timestamp: isoTime(o.atMs),
  }));
}

/**
 * An offer as Marathon's RAML `Offer` (raml/OfferConversion.scala `offerWrites`): the agent's
 * attributes, and as `resources` the offer's pools the way Mesos lists them — one
 * `{name, role, scalar}` per non-zero cpus/mem/disk/gpus and one `{name: "ports", role, ranges}`
 * per pool, `role` being the reservation's role or `*` (Mesos' `Resource.role`, which Marathon
 * writes). Resources the core cannot use (revocable, shared, persistent volumes) are not in its pools.
 */
export function offerJson(offer: Offer): Record<string, unknown> {
  return {
    id: offer.offerId,
    hostname: offer.agent.hostname,
    agentId: offer.agent.agentId,
    resources: offerResourcesJson(offer),
    attributes: agentAttributesJson(offer.agent.attributes),
  };
}

function offerResourcesJson(offer: Offer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const pool of offer.pools) {
    const role = pool.reservedFor ?? '*';
    const scalars: [string, number][] = [
      ['cpus', fromMilli(pool.cpusMilli)], ['mem', fromMilli(pool.memMilli)], ['disk', fromMilli(pool.diskMilli)], ['gpus', pool.gpus],
    ];
    for (const [name, scalar] of scalars) if (scalar > 0) out.push({ name, role, scalar });
    if (pool.ports.length > 0) out.push({ name: 'ports', role, ranges: numberRangesJson(pool.ports) });
  }
  return out;
}

/** The core's ring of recent unused offers reduced to the latest one per agent, oldest first. */
function lastUnusedPerAgent(stats: RejectionStats): UnusedOffer[] {
  const byAgent = new Map<string, UnusedOffer>();
  for (const unused of stats.lastUnused()) {
    byAgent.delete(unused.offer.agent.agentId);
    byAgent.set(unused.offer.agent.agentId, unused);
  }
  return [...byAgent.values()];
}

function countReasons(offers: readonly UnusedOffer[]): Partial<Record<NoMatchReason, number>> {
  const out: Partial<Record<NoMatchReason, number>> = {};
  for (const o of offers) out[o.reason] = (out[o.reason] ?? 0) + 1;
  return out;
}

/** Each reason in funnel order with the offers that got that far and the ones it declined. */
function funnel(total: number, declined: Partial<Record<NoMatchReason, number>>): Record<string, unknown>[] {
  let processed = total;
  return NO_MATCH_REASONS.map((reason) => {
    const n = declined[reason] ?? 0;
    const step = { reason, declined: n, processed };
    processed -= n;
    return step;
  });
}
