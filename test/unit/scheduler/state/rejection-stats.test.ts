import t from 'tap';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { PENDING_MAX, reasonIndex, RejectionStats, USED_OFFER } from '../../../../src/scheduler/state/rejection-stats';
import { AssertionError } from '../../../../src/scheduler/kernel/assert';
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

t.test('the log, folded at any point, ends exactly as the same recordUnused and recordUsed calls one by one', async (t) => {
  const offers: Offer[] = [];
  const reasons: NoMatchReason[] = [];
  for (let k = 0; k < 80; k++) {
    offers.push(makeOffer({ offerId: `o${k}` }));
    reasons.push(NO_MATCH_REASONS[k % NO_MATCH_REASONS.length]);
  }
  for (const ringMax of [0, 1, 3, 7, 50]) {
    for (const before of [0, 2, 9]) {
      for (const count of [0, 1, 3, 7, 8, 20, 70]) {
        for (const foldEvery of [1, 5, 63, PENDING_MAX]) {
          const one = new RejectionStats(ringMax);
          const log = new RejectionStats(ringMax);
          for (let k = 0; k < before; k++) {
            one.recordUnused(reasons[79 - k], offers[79 - k], 5);
            log.recordUnused(reasons[79 - k], offers[79 - k], 5);
          }
          // Every third entry an offer used, at later and later times, as cycles go by.
          for (let k = 0; k < count; k++) {
            const atMs = 9 + Math.floor(k / 4);
            if (k % 3 === 2) {
              one.recordUsed(atMs);
              log.pending.append(USED_OFFER, undefined, atMs);
            } else {
              one.recordUnused(reasons[k], offers[k], atMs);
              log.pending.append(reasonIndex(reasons[k]), offers[k], atMs);
            }
            if ((k + 1) % foldEvery === 0) log.fold();
          }
          const name = `ring ${ringMax}, ${before} before, ${count} logged, folded every ${foldEvery}`;
          t.same(seen(log), seen(one), name);
          t.equal(log.pending.count, 0, `${name}: reading folded the log`);
          t.ok(log.pending.offers.every((o) => o === undefined), `${name}: the folded log keeps no offer`);
          one.recordUsed(99);
          log.recordUsed(99);
          t.same(seen(log), seen(one), `${name}, then one used`);
        }
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

t.test('the log holds at most PENDING_MAX entries, written in place, and none after a fold', async (t) => {
  const s = new RejectionStats(3);
  const offer = makeOffer({ offerId: 'o' });
  const { reasons, offers, atMs } = s.pending;
  for (let k = 0; k < PENDING_MAX; k++) t.equal(s.pending.append(reasonIndex('InsufficientCpus'), offer, k), k + 1);
  t.throws(() => s.pending.append(USED_OFFER, undefined, 99), AssertionError, 'one more is a bug: the matcher folds it at PENDING_MAX');
  s.fold();
  t.equal(s.unusedOffers, PENDING_MAX);
  t.same([s.pending.count, s.pending.offers.filter((o) => o !== undefined).length], [0, 0], 'empty, and keeping no offer alive');
  s.pending.append(USED_OFFER, undefined, 100);
  t.ok(s.pending.reasons === reasons && s.pending.offers === offers && s.pending.atMs === atMs, 'the same arrays, reused');
  t.equal(s.processedOffers, PENDING_MAX + 1);
});
