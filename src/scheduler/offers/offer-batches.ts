import type { LaunchContext } from '../launch-queue/launch-context';
import type { OfferMatcher } from '../matcher/match-offers';
import type { Offer } from '../model/offer';
import { RESEND_REFUSE_MS } from '../scheduler-options';

/** One batch of offers not matched yet, and how many more instances the batch may place. */
interface KeptBatch {
  offers: readonly Offer[];
  left: number;
}

/**
 * The offers of each `offers` input, matched a bounded share per input (issue 11 item 4: a big
 * change must not block the loop). One input places at most `launchesPerInput` instances, over
 * the oldest kept batch first; offers it did not get to are kept, in order, and a
 * `continueOffers` timer due at once goes on with them in the next input, so that API requests and
 * cluster updates are handled in between. A batch places at most `launchesPerOfferBatch` in all;
 * its offers left then are declined with Mesos's default filter ({@link RESEND_REFUSE_MS}) to
 * come back soon. With the two bounds equal (the default) a batch is done within its own input
 * and nothing is ever kept: the decisions are those of matching each batch at once.
 *
 * A kept offer leaves when it is rescinded, when its agent is lost, and all of them when the
 * framework is disconnected or subscribes again (the master has withdrawn them); the master
 * answers an accept of a withdrawn offer with TASK_DROPPED anyway. The core is deterministic:
 * the bounds are counts, never times.
 */
export class OfferBatches {
  private kept: KeptBatch[] = [];
  private timerId: number | undefined;

  constructor(private readonly matcher: OfferMatcher) {}

  /** An `offers` input: the batch queues behind those kept, then this input's share is matched. */
  onOffers(ctx: LaunchContext, offers: readonly Offer[]): void {
    this.kept.push({ offers, left: ctx.options.launchesPerOfferBatch });
    this.matchShare(ctx);
  }

  /** The `continueOffers` timer: the next share of the kept offers. */
  onContinue(ctx: LaunchContext): void {
    this.timerId = undefined;
    this.matchShare(ctx);
  }

  /** A rescinded offer is no longer kept. */
  rescind(offerId: string): void {
    this.keepOnly((o) => o.offerId !== offerId);
  }

  /** The offers of a lost agent are no longer kept. */
  agentLost(agentId: string): void {
    this.keepOnly((o) => o.agent.agentId !== agentId);
  }

  /** Disconnected or subscribed again: every kept offer is void. */
  dropAll(): void {
    this.kept = [];
  }

  /** Offers kept for a later input (tests, metrics). */
  keptCount(): number {
    let n = 0;
    for (const b of this.kept) n += b.offers.length;
    return n;
  }

  private matchShare(ctx: LaunchContext): void {
    let budget = ctx.options.launchesPerInput;
    while (this.kept.length > 0 && budget > 0) {
      const batch = this.kept[0];
      const { placed, rest } = this.matcher.match(ctx, batch.offers, Math.min(budget, batch.left));
      budget -= placed;
      batch.left -= placed;
      if (rest.length > 0 && batch.left > 0) {
        // This input's share is used up: the rest of the batch waits for the next input.
        batch.offers = rest;
        break;
      }
      this.kept.shift();
      if (rest.length > 0) ctx.driver.decline(rest.map((o) => o.offerId), RESEND_REFUSE_MS);
    }
    if (this.kept.length > 0) this.timerId ??= ctx.timers.schedule(ctx.clock.nowMs(), { type: 'timer', timer: { kind: 'continueOffers' } });
  }

  private keepOnly(keep: (offer: Offer) => boolean): void {
    for (const batch of this.kept) batch.offers = batch.offers.filter(keep);
    this.kept = this.kept.filter((b) => b.offers.length > 0);
  }
}
