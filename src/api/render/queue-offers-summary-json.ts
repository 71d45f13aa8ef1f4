import { isoTime } from '../../scheduler/kernel/iso-time';
import type { RejectionStats, UnusedOffer } from '../../scheduler/matcher/rejection-stats';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../scheduler/model/no-match-reason';

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
 * as `{offer:{id, agentId, hostname, resources, attributes}, reason:[…], timestamp}`. The core
 * keeps only the offer's identity, so `resources` and `attributes` are empty.
 */
export function lastUnusedOffersJson(stats: RejectionStats): Record<string, unknown>[] {
  return lastUnusedPerAgent(stats).map((o) => ({
    offer: { id: o.offerId, agentId: o.agentId, hostname: o.hostname, resources: [], attributes: [] },
    reason: [o.reason],
    timestamp: isoTime(o.atMs),
  }));
}

/** The core's ring of recent unused offers reduced to the latest one per agent, oldest first. */
function lastUnusedPerAgent(stats: RejectionStats): UnusedOffer[] {
  const byAgent = new Map<string, UnusedOffer>();
  for (const offer of stats.lastUnused()) {
    byAgent.delete(offer.agentId);
    byAgent.set(offer.agentId, offer);
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
