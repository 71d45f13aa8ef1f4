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
