import t from 'tap';
import { ApiFailure } from '../../ui/src/api/client';
import type { PollEnv } from '../../ui/src/api/poll-loop';
import { SharedPolls, type PollSnapshot } from '../../ui/src/api/shared-polls';

/**
 * The UI's polled GETs are shared per path (ui/src/api/shared-polls.ts). Found in a browser
 * trial: the header and the apps page each read `/v2/queue` every 2 s, two requests for one answer.
 */

/** A page whose interval timers the test fires by hand, and a fetch whose answers it releases one by one. */
function harness(): {
  polls: SharedPolls; reads: string[]; tick: () => void; answer: (body: unknown) => Promise<void>; fail: (f: ApiFailure) => Promise<void>; timers: () => number;
} {
  const ticks = new Map<number, () => void>();
  let next = 0;
  const env: PollEnv = {
    setInterval: (fn) => { ticks.set(++next, fn); return next; },
    clearInterval: (timer) => { ticks.delete(timer as number); },
    hidden: () => false,
    onVisibilityChange: () => () => undefined,
  };
  const reads: string[] = [];
  const pending: { resolve: (body: unknown) => void; reject: (err: unknown) => void }[] = [];
  const fetch = (path: string): Promise<unknown> => new Promise((resolve, reject) => {
    reads.push(path);
    pending.push({ resolve, reject });
  });
  const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    polls: new SharedPolls(fetch, env),
    reads,
    tick: () => { for (const fn of ticks.values()) fn(); },
    answer: async (body) => { pending.shift()?.resolve(body); await flush(); },
    fail: async (failure) => { pending.shift()?.reject(failure); await flush(); },
    timers: () => ticks.size,
  };
}

t.test('two components polling one path share one loop: one request per interval', async (t) => {
  const h = harness();
  const header: PollSnapshot<unknown>[] = [];
  const page: PollSnapshot<unknown>[] = [];
  const first = h.polls.subscribe('/v2/queue', 2000, (s) => header.push(s));
  t.same(first.current, { data: undefined, error: undefined }, 'a new poll has no answer yet');
  await h.answer({ queue: [1] });
  const second = h.polls.subscribe('/v2/queue', 2000, (s) => page.push(s));
  t.same(second.current, { data: { queue: [1] }, error: undefined }, 'the second gets the latest answer at once');
  t.same(h.reads, ['/v2/queue'], 'and adds no request');
  h.tick();
  await h.answer({ queue: [2] });
  t.same(h.reads, ['/v2/queue', '/v2/queue'], 'one request per interval for both');
  t.same(header.map((s) => s.data), [{ queue: [1] }, { queue: [2] }]);
  t.same(page.map((s) => s.data), [{ queue: [2] }], 'both hear the new answer');
  t.equal(h.polls.size, 1);

  first.unsubscribe();
  t.equal(h.timers(), 1, 'the loop goes on while a subscriber is left');
  second.unsubscribe();
  t.equal(h.polls.size, 0, 'the last one leaving stops it');
  t.equal(h.timers(), 0, 'its interval cleared');
  h.tick();
  t.equal(h.reads.length, 2, 'nothing read after');
});

t.test('polls of other paths or intervals are separate loops', async (t) => {
  const h = harness();
  h.polls.subscribe('/v2/queue', 2000, () => undefined);
  h.polls.subscribe('/v2/queue?embed=lastUnusedOffers', 2000, () => undefined);
  h.polls.subscribe('/v2/queue', 10_000, () => undefined);
  t.equal(h.polls.size, 3);
  t.same(h.reads, ['/v2/queue', '/v2/queue?embed=lastUnusedOffers', '/v2/queue']);
});

t.test('a failure keeps the last answer for every subscriber, a 404 drops it; refreshAll and reload read at once', async (t) => {
  const h = harness();
  const seen: PollSnapshot<unknown>[] = [];
  h.polls.subscribe('/v2/apps/web', 2000, (s) => seen.push(s));
  await h.answer({ app: { id: '/web' } });
  h.tick();
  await h.fail(new ApiFailure(503, 'busy', undefined, 'GET /v2/apps/web'));
  t.same(seen[1].data, { app: { id: '/web' } }, '503: the last answer kept');
  t.equal(seen[1].error?.status, 503, 'with the error');
  h.polls.refreshAll();
  await h.fail(new ApiFailure(404, 'gone', undefined, 'GET /v2/apps/web'));
  t.equal(seen[2].data, undefined, '404: dropped');
  h.polls.reload('/v2/apps/web', 2000);
  await h.answer({ app: { id: '/web' } });
  t.equal(h.reads.length, 4, 'refreshAll and reload each read once');
  t.same(seen[3], { data: { app: { id: '/web' } }, error: undefined });
});

t.test('an answer arriving after the last subscriber left reaches no one', async (t) => {
  const h = harness();
  const seen: PollSnapshot<unknown>[] = [];
  const sub = h.polls.subscribe('/v2/info', 2000, (s) => seen.push(s));
  sub.unsubscribe();
  await h.answer({ name: 'pacer' });
  t.same(seen, []);
  const again = h.polls.subscribe('/v2/info', 2000, () => undefined);
  t.same(again.current, { data: undefined, error: undefined }, 'a new subscriber starts a new poll, not the stopped one');
});
