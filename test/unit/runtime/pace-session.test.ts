import t from 'tap';
import type { RunSession } from '../../../sim/runner/run-scenario';
import { paceSession } from '../../../src/runtime/pace-session';

/** A session of `entries` due times (virtual ms from `epoch`) that records when each is handled. */
function fakeSession(epoch: number, dues: number[], endMs: number): { session: RunSession; handled: number[] } {
  const handled: number[] = [];
  const queue = dues.map((d) => epoch + d);
  const session = {
    endMs: epoch + endMs,
    nextDueMs: () => queue[0],
    step: (untilMs: number) => {
      if (queue.length === 0 || queue[0] > untilMs) return false;
      handled.push((queue.shift() as number) - epoch);
      return true;
    },
    onEvent: () => undefined,
    finish: () => { throw new Error('not used'); },
  } as unknown as RunSession;
  return { session, handled };
}

t.test('entries are handled in order at wall speed × speed, and nothing past the end', async (t) => {
  const { session, handled } = fakeSession(1000, [0, 50, 100, 5000], 200);
  const started = Date.now();
  await paceSession(session, 1000, 10, new AbortController().signal);
  t.same(handled, [0, 50, 100], 'the entry after the end is not run');
  t.ok(Date.now() - started >= 8, 'about 100 virtual ms / 10 = 10 wall ms');
});

t.test('an abort stops pacing at once', async (t) => {
  const { session, handled } = fakeSession(0, [0, 60_000], 120_000);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 20);
  const started = Date.now();
  await paceSession(session, 0, 1, abort.signal);
  t.same(handled, [0]);
  t.ok(Date.now() - started < 30_000, 'did not wait for the minute-long entry');
});

t.test('behind schedule, pacing still yields: an abort from a timer stops it (SIGINT did not stop a fast --cluster sim)', async (t) => {
  // 2,000 entries 1 virtual ms apart at speed 1, each taking 2 wall ms: always behind the clock,
  // about 4 s of work. A pump that never yields cannot see the abort before it has run them all.
  const count = 2000;
  const { session, handled } = fakeSession(0, Array.from({ length: count }, (_, i) => i), count);
  const step = session.step.bind(session);
  session.step = (untilMs: number) => {
    const busyUntil = Date.now() + 2;
    while (Date.now() < busyUntil) { /* a slow entry */ }
    return step(untilMs);
  };
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 20);
  await paceSession(session, 0, 1, abort.signal);
  t.ok(handled.length < count / 2, `stopped after ${handled.length} of ${count} entries`);
});
