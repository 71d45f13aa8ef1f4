import type { CoreContext } from '../core-context';
import type { Instance } from '../model/instance';
import type { LaunchOperation } from '../model/launch';
import type { Offer } from '../model/offer';
import type { RunSpecState } from '../state/run-spec-state';
import type { FilterPlugin } from './filter-plugin';
import { OfferLedger } from './offer-ledger';
import { runFilters } from './pipeline';
import { reserve } from './reserve';
import { placeInstance } from '../launcher/place-instance';

/**
 * One matching cycle over a batch of offers (architecture §4). The run specs that want offers are
 * collected once per batch; each offer then gets rounds in which every candidate may place one
 * instance (fair interleaving), until the offer is full, `maxInstancesPerOffer` is reached or no
 * candidate fits. A candidate rejected by an offer is skipped for the rest of that offer (the
 * ledger only shrinks). Instances are persisted before the accept; unused offers are declined in
 * one call with the refuse filter.
 */
export class OfferMatcher {
  private offerSeq = 0;

  constructor(private readonly plugins: readonly FilterPlugin[]) {}

  match(ctx: CoreContext, offers: readonly Offer[]): void {
    const nowMs = ctx.clock.nowMs();
    const candidates: RunSpecState[] = [];
    for (const rs of ctx.demand.wantingRunSpecs()) if (ctx.demand.wantsOffers(rs, nowMs)) candidates.push(rs);
    const declined: string[] = [];
    for (const offer of offers) {
      const placed = candidates.length === 0 ? [] : this.matchOne(ctx, offer, candidates, nowMs);
      if (placed.length === 0) {
        declined.push(offer.offerId);
        continue;
      }
      ctx.store.saveInstances(placed.map((p) => p.inst));
      ctx.driver.accept(offer.offerId, placed.map((p) => p.op), ctx.options.acceptRefuseMs);
    }
    if (declined.length > 0) ctx.driver.decline(declined, ctx.options.declineRefuseMs);
  }

  private matchOne(ctx: CoreContext, offer: Offer, candidates: RunSpecState[], nowMs: number): Placed[] {
    const seq = ++this.offerSeq;
    const ledger = new OfferLedger(offer);
    const max = ctx.options.maxInstancesPerOffer;
    const placed: Placed[] = [];
    let progress = true;
    while (progress && ledger.placed < max) {
      progress = false;
      for (let i = 0; i < candidates.length && ledger.placed < max; i++) {
        const rs = candidates[i];
        if (rs.scheduled.length === 0 || rs.failedOfferSeq === seq) continue;
        const reason = runFilters(this.plugins, rs.request, ledger, rs.counts);
        if (reason !== undefined) {
          rs.failedOfferSeq = seq;
          if (rs.usedOfferSeq !== seq) rs.rejections.recordUnused(reason, offer.offerId, offer.agent.agentId, offer.agent.hostname, nowMs);
          continue;
        }
        const inst = rs.scheduled.shift() as Instance;
        ctx.state.demandDirty.add(rs);
        if (rs.usedOfferSeq !== seq) {
          rs.usedOfferSeq = seq;
          rs.rejections.recordUsed(nowMs);
        }
        placed.push({ inst, op: placeInstance(ctx, rs, inst, offer, reserve(rs.request, ledger)) });
        progress = true;
      }
    }
    return placed;
  }
}

interface Placed {
  readonly inst: Instance;
  readonly op: LaunchOperation;
}
