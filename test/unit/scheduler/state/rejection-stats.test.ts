import t from 'tap';
import { NO_MATCH_REASONS } from '../../../../src/scheduler/model/no-match-reason';
import { reasonIndex, RejectionStats } from '../../../../src/scheduler/state/rejection-stats';
import { AssertionError } from '../../../../src/scheduler/kernel/assert';
import { makeOffer } from '../../../builders/cluster-builders';

t.test('reasonIndex is the index in NO_MATCH_REASONS', async (t) => {
  NO_MATCH_REASONS.forEach((r, i) => t.equal(reasonIndex(r), i, r));
});

t.test('recordUnusedIndex records as recordUnused does with the reason of that index', async (t) => {
  const named = new RejectionStats(2);
  const indexed = new RejectionStats(2);
  NO_MATCH_REASONS.forEach((r, i) => {
    const offer = makeOffer({ offerId: `o${i}` });
    named.recordUnused(r, offer, i);
    indexed.recordUnusedIndex(i, offer, i);
  });
  t.same(indexed.byReason(), named.byReason());
  t.same(indexed.lastUnused(), named.lastUnused());
  t.same([indexed.processedOffers, indexed.unusedOffers, indexed.lastUnusedOfferAtMs], [NO_MATCH_REASONS.length, NO_MATCH_REASONS.length, NO_MATCH_REASONS.length - 1]);
  for (const bad of [-1, NO_MATCH_REASONS.length, 0.5, NaN]) {
    t.throws(() => indexed.recordUnusedIndex(bad, makeOffer({}), 0), AssertionError, `index ${bad} is a bug`);
  }
});

t.test('the ring keeps the last ringMax unused offers, oldest first', async (t) => {
  const s = new RejectionStats(3);
  for (let k = 0; k < 5; k++) s.recordUnused('InsufficientCpus', makeOffer({ offerId: `o${k}` }), k);
  t.same(s.lastUnused().map((u) => u.offer.offerId), ['o2', 'o3', 'o4']);
  t.same(s.byReason(), { InsufficientCpus: 5 });
  t.equal(s.unusedOffers, 5);
});
