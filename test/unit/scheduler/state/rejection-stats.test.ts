import t from 'tap';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { RejectionStats } from '../../../../src/scheduler/state/rejection-stats';
import { makeOffer } from '../../../builders/cluster-builders';

/** What a reader of the statistics sees. */
function seen(s: RejectionStats) {
  return {
    processed: s.processedOffers, unused: s.unusedOffers, at: s.lastUnusedOfferAtMs, byReason: s.byReason(),
    last: s.lastUnused().map((u) => [u.offer.offerId, u.reason, u.atMs]),
  };
}

t.test('recordUnusedMany ends exactly as the same recordUnused calls one by one', async (t) => {
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
        const many = new RejectionStats(ringMax);
        for (let k = 0; k < before; k++) {
          one.recordUnused(reasons[79 - k], offers[79 - k], 5);
          many.recordUnused(reasons[79 - k], offers[79 - k], 5);
        }
        // The run: every other entry of a log, from entry 3 on (the log holds other run specs' entries too).
        const indices = new Int32Array(2 + count);
        for (let k = 0; k < count; k++) indices[2 + k] = 3 + 2 * k;
        for (let k = 2; k < 2 + count; k++) one.recordUnused(reasons[indices[k]], offers[indices[k]], 9);
        many.recordUnusedMany(reasons, offers, indices, 2, 2 + count, 9);
        t.same(seen(many), seen(one), `ring ${ringMax}, ${before} before, ${count} at once`);
      }
    }
  }
});
