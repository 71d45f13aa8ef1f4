import t from 'tap';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { reasonIndex, RejectionStats } from '../../../../src/scheduler/state/rejection-stats';
import { makeOffer } from '../../../builders/cluster-builders';

/** What a reader of the statistics sees. */
function seen(s: RejectionStats) {
  return {
    processed: s.processedOffers, unused: s.unusedOffers, usedAt: s.lastUsedOfferAtMs, at: s.lastUnusedOfferAtMs,
    byReason: s.byReason(), last: s.lastUnused().map((u) => [u.offer.offerId, u.reason, u.atMs]),
  };
}

t.test('reasonIndex is the index in NO_MATCH_REASONS', async (t) => {
  NO_MATCH_REASONS.forEach((r, i) => t.equal(reasonIndex(r), i, r));
});

t.test('recordUnusedRun and recordUsedMany end exactly as the same recordUnused and recordUsed calls one by one', async (t) => {
  const offers: Offer[] = [];
  const reasons: NoMatchReason[] = [];
  for (let k = 0; k < 80; k++) {
    offers.push(makeOffer({ offerId: `o${k}` }));
    reasons.push(NO_MATCH_REASONS[k % NO_MATCH_REASONS.length]);
  }
  for (const ringMax of [0, 1, 3, 7, 50]) {
    for (const before of [0, 2, 9]) {
      for (const count of [0, 1, 3, 7, 8, 20]) {
        const one = new RejectionStats(ringMax);
        const run = new RejectionStats(ringMax);
        for (let k = 0; k < before; k++) {
          one.recordUnused(reasons[79 - k], offers[79 - k], 5);
          run.recordUnused(reasons[79 - k], offers[79 - k], 5);
        }
        const runReasons: number[] = [];
        const runOffers: Offer[] = [];
        for (let k = 0; k < count; k++) {
          one.recordUnused(reasons[3 + 2 * k], offers[3 + 2 * k], 9);
          runReasons.push(reasonIndex(reasons[3 + 2 * k]));
          runOffers.push(offers[3 + 2 * k]);
        }
        run.recordUnusedRun(runReasons, runOffers, 9);
        t.same(seen(run), seen(one), `ring ${ringMax}, ${before} before, ${count} at once`);
        for (let k = 0; k < count; k++) one.recordUsed(11);
        run.recordUsedMany(count, 11);
        t.same(seen(run), seen(one), `ring ${ringMax}, ${before} before, ${count} at once, then ${count} used`);
      }
    }
  }
});

t.test('the ring keeps the last ringMax unused offers, oldest first', async (t) => {
  const s = new RejectionStats(3);
  for (let k = 0; k < 5; k++) s.recordUnused('InsufficientCpus', makeOffer({ offerId: `o${k}` }), k);
  t.same(s.lastUnused().map((u) => u.offer.offerId), ['o2', 'o3', 'o4']);
  t.same(s.byReason(), { InsufficientCpus: 5 });
  t.equal(s.unusedOffers, 5);
});
