import t from 'tap';
import { NO_MATCH_REASONS, type NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { reasonIndex, RejectionStats } from '../../../../src/scheduler/state/rejection-stats';
import { OFFER_LOG_MAX, OFFER_LOG_SLOTS_MAX, OfferUseLog, USED_OFFER } from '../../../../src/scheduler/matcher/offer-use-log';
import { makeOffer } from '../../../builders/cluster-builders';

/** What a reader of the statistics sees. */
function seen(s: RejectionStats) {
  return {
    processed: s.processedOffers, unused: s.unusedOffers, usedAt: s.lastUsedOfferAtMs, at: s.lastUnusedOfferAtMs,
    byReason: s.byReason(), last: s.lastUnused().map((u) => [u.offer.offerId, u.reason, u.atMs]),
  };
}

/** One entry of a matching call: run spec `rs` used an offer (no reason) or could not use `offer` for `reason`. */
interface Entry {
  readonly rs: number;
  readonly reason?: NoMatchReason;
  readonly offer?: Offer;
}

/** Entries over `specs` run specs: every third an offer used, the others refusals of varied reasons and offers. */
function entries(count: number, specs: number): Entry[] {
  const out: Entry[] = [];
  for (let k = 0; k < count; k++) {
    const rs = (k * 7) % specs;
    out.push(k % 3 === 2 ? { rs } : { rs, reason: NO_MATCH_REASONS[k % NO_MATCH_REASONS.length], offer: makeOffer({ offerId: `o${k}` }) });
  }
  return out;
}

t.test('the log, folded at any point, ends exactly as the same records made one by one', async (t) => {
  for (const ringMax of [0, 1, 3, 50]) {
    for (const specs of [1, 2, 5]) {
      for (const count of [0, 1, 3, 8, 70]) {
        for (const foldEvery of [1, 5, 63, Infinity]) {
          // Two calls, at 9 and at 12: a call's entries all take its time.
          const one = Array.from({ length: specs }, () => new RejectionStats(ringMax));
          const logged = Array.from({ length: specs }, () => new RejectionStats(ringMax));
          const log = new OfferUseLog();
          for (const atMs of [9, 12]) {
            entries(count, specs).forEach((e, k) => {
              if (e.reason === undefined) {
                one[e.rs].recordUsed(atMs);
                log.append(logged[e.rs], USED_OFFER, undefined, atMs);
              } else {
                one[e.rs].recordUnused(e.reason, e.offer as Offer, atMs);
                log.append(logged[e.rs], reasonIndex(e.reason), e.offer, atMs);
              }
              if ((k + 1) % foldEvery === 0) log.fold(atMs);
            });
            log.fold(atMs);
            t.equal(log.length, 0, 'a fold empties the log');
          }
          const name = `ring ${ringMax}, ${specs} run specs, ${count} entries per call, folded every ${foldEvery}`;
          t.same(logged.map(seen), one.map(seen), name);
        }
      }
    }
  }
});

t.test(`the log holds at most OFFER_LOG_MAX (${OFFER_LOG_MAX}) entries: one more folds it in first`, async (t) => {
  const stats = new RejectionStats(3);
  const log = new OfferUseLog();
  const offer = makeOffer({ offerId: 'o' });
  for (let k = 0; k < OFFER_LOG_MAX; k++) log.append(stats, reasonIndex('InsufficientCpus'), offer, 5);
  t.same([log.length, stats.processedOffers], [OFFER_LOG_MAX, 0], 'full, nothing folded yet');
  log.append(stats, USED_OFFER, undefined, 5);
  t.same([log.length, stats.processedOffers, stats.unusedOffers], [1, OFFER_LOG_MAX, OFFER_LOG_MAX], 'folded, then the new entry written');
  log.fold(5);
  t.same([log.length, stats.processedOffers, stats.lastUsedOfferAtMs], [0, OFFER_LOG_MAX + 1, 5]);
});

t.test('entries by kept slot fold as entries by statistics do, each run spec\'s in order', async (t) => {
  for (const specs of [1, 3, 40]) {
    const one = Array.from({ length: specs }, () => new RejectionStats(5));
    const logged = Array.from({ length: specs }, () => new RejectionStats(5));
    const log = new OfferUseLog();
    const slots = logged.map((s) => log.slotOf(s));
    t.same(new Set(slots).size, specs, 'a slot each');
    entries(500, specs).forEach((e, k) => {
      // Every other entry through the kept slot, the others through the statistics themselves.
      const slot = slots[e.rs];
      if (e.reason === undefined) {
        one[e.rs].recordUsed(4);
        if (k % 2 === 0) log.appendSlot(slot, USED_OFFER, undefined, 4);
        else log.append(logged[e.rs], USED_OFFER, undefined, 4);
      } else {
        one[e.rs].recordUnused(e.reason, e.offer as Offer, 4);
        if (k % 2 === 0) log.appendSlot(slot, reasonIndex(e.reason), e.offer, 4);
        else log.append(logged[e.rs], reasonIndex(e.reason), e.offer, 4);
      }
    });
    log.fold(4);
    t.same(logged.map(seen), one.map(seen), `${specs} run specs`);
  }
});

t.test(`the table of slots starts over after a fold once it holds more than OFFER_LOG_SLOTS_MAX (${OFFER_LOG_SLOTS_MAX})`, async (t) => {
  const log = new OfferUseLog();
  const offer = makeOffer({ offerId: 'o' });
  const many = Array.from({ length: OFFER_LOG_SLOTS_MAX + 1 }, () => new RejectionStats(1));
  const kept = many[0];
  const keptSlot = log.slotOf(kept);
  const generation = log.generation;
  // More entries than the log holds: a fold in the middle keeps the generation (slots in use stay valid).
  for (const s of many) log.append(s, reasonIndex('InsufficientMemory'), offer, 7);
  t.equal(log.generation, generation, 'a fold while appending keeps the table');
  log.appendSlot(keptSlot, USED_OFFER, undefined, 7);
  log.fold(7);
  t.not(log.generation, generation, 'started over after the fold');
  t.ok(many.every((s) => s.processedOffers === (s === kept ? 2 : 1) && s.unusedOffers === 1), 'every entry folded into its own statistics');
  t.equal(kept.lastUsedOfferAtMs, 7);
  // A slot of the new generation for the same statistics.
  log.appendSlot(log.slotOf(kept), reasonIndex('InsufficientCpus'), offer, 8);
  log.fold(8);
  t.same([kept.processedOffers, kept.unusedOffers, kept.byReason()], [3, 2, { InsufficientMemory: 1, InsufficientCpus: 1 }], 'written to the statistics it names');
});
