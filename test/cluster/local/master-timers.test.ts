import FakeTimers from '@sinonjs/fake-timers';
import t, { type Test } from 'tap';
import { MasterTimers } from '../../../src/cluster/local/master-timers';
import type { MasterTimerEvent } from '../../../src/master/master-ports';

type FakeClock = ReturnType<typeof FakeTimers.install>;

const START_MS = 1_700_000_000_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Node's largest setTimeout delay; a longer one fires after 1 ms (fake-timers copies that). */
const NODE_MAX_TIMEOUT_MS = 2_147_483_647;

/** A master timer event naming `name` (the agent of a ping timeout), to tell firings apart. */
function input(name: string): MasterTimerEvent {
  return { kind: 'agentUnreachable', agentId: name };
}

/** The name of a fired event. */
function nameOf(e: MasterTimerEvent): string {
  return e.kind === 'offerCycle' ? e.kind : e.kind === 'filterExpired' ? `${e.kind}@${e.dueMs}` : e.agentId;
}

/** MasterTimers on a fake clock (setTimeout, clearTimeout and Date faked), recording what it posts. */
function makeTimers(t: Test): { clock: FakeClock; timers: MasterTimers; fired: string[] } {
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  t.teardown(() => clock.uninstall());
  const fired: string[] = [];
  const timers = new MasterTimers((e) => fired.push(nameOf(e)), () => clock.now);
  return { clock, timers, fired };
}

t.test('timers fire in due order, each once, at their due time', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  timers.schedule(START_MS + 300, input('c'));
  timers.schedule(START_MS + 100, input('a'));
  timers.schedule(START_MS + 200, input('b'));
  timers.schedule(START_MS + 200, input('b2'));
  t.equal(timers.size, 4);
  clock.tick(99);
  t.same(fired, [], 'nothing before the first due time');
  clock.tick(1);
  t.same(fired, ['a']);
  clock.tick(200);
  t.same(fired, ['a', 'b', 'b2', 'c'], 'equal due times keep their scheduling order');
  t.equal(timers.size, 0, 'fired timers are no longer pending');
  clock.tick(DAY_MS);
  t.same(fired, ['a', 'b', 'b2', 'c'], 'none fires twice');
});

t.test('a due time already past fires on the next turn, not inside schedule()', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  timers.schedule(START_MS - 5000, input('late'));
  t.same(fired, [], 'not posted synchronously');
  clock.tick(0);
  t.same(fired, ['late']);
});

t.test('ids are distinct; cancel stops one timer, and unknown or repeated cancels are harmless', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  const a = timers.schedule(START_MS + 10, input('a'));
  const b = timers.schedule(START_MS + 20, input('b'));
  const c = timers.schedule(START_MS + 30, input('c'));
  t.equal(new Set([a, b, c]).size, 3, 'three ids');
  timers.cancel(b);
  t.equal(timers.size, 2);
  timers.cancel(b);
  timers.cancel(9999);
  t.equal(timers.size, 2);
  clock.tick(100);
  t.same(fired, ['a', 'c']);
  timers.cancel(a);
  t.equal(timers.size, 0, 'cancelling a fired timer changes nothing');
});

t.test('a timer may cancel a later one and schedule a new one from its post', async (t) => {
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  t.teardown(() => clock.uninstall());
  const fired: string[] = [];
  let laterId = 0;
  const timers: MasterTimers = new MasterTimers((e) => {
    const name = nameOf(e);
    fired.push(name);
    if (name === 'first') {
      timers.cancel(laterId);
      timers.schedule(clock.now + 5, input('again'));
    }
  }, () => clock.now);
  timers.schedule(START_MS + 10, input('first'));
  laterId = timers.schedule(START_MS + 12, input('later'));
  clock.tick(100);
  t.same(fired, ['first', 'again']);
  t.equal(timers.size, 0);
});

t.test('clear() cancels everything (shutdown)', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  timers.schedule(START_MS + 10, input('a'));
  timers.schedule(START_MS + 40 * DAY_MS, input('far'));
  t.equal(clock.countTimers(), 2);
  timers.clear();
  t.equal(timers.size, 0);
  t.equal(clock.countTimers(), 0, 'no timer left armed');
  clock.tick(41 * DAY_MS);
  t.same(fired, []);
  timers.schedule(clock.now + 1, input('after'));
  clock.tick(1);
  t.same(fired, ['after'], 'usable after clear');
});

t.test('a wait longer than Node\'s 24.8-day limit is re-armed in steps and fires at its due time', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  const dueMs = START_MS + 30 * DAY_MS;
  timers.schedule(dueMs, input('week-long expunge'));
  clock.tick(1);
  t.same(fired, [], 'not fired at once (a plain setTimeout would fire after 1 ms)');
  clock.tick(NODE_MAX_TIMEOUT_MS);
  t.same(fired, [], 'not fired at the first step');
  t.equal(timers.size, 1, 'still pending after a re-arm');
  t.equal(clock.countTimers(), 1, 'exactly one armed timer');
  clock.tick(dueMs - clock.now - 1);
  t.same(fired, [], 'not fired 1 ms early');
  clock.tick(1);
  t.same(fired, ['week-long expunge'], 'fired at the due time');
  t.equal(timers.size, 0);
});

t.test('a very long wait spans several steps; cancel after a re-arm still cancels', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  const far = timers.schedule(START_MS + 100 * DAY_MS, input('far'));
  timers.schedule(START_MS + 80 * DAY_MS, input('nearer'));
  clock.tick(60 * DAY_MS);
  t.equal(timers.size, 2);
  timers.cancel(far);
  t.equal(timers.size, 1);
  clock.tick(50 * DAY_MS);
  t.same(fired, ['nearer'], 'the cancelled one never fires, the other fires once');
  t.equal(clock.countTimers(), 0);
});

t.test('a due time exactly at the limit fires at it, in one step', async (t) => {
  const { clock, timers, fired } = makeTimers(t);
  timers.schedule(START_MS + NODE_MAX_TIMEOUT_MS, input('edge'));
  clock.tick(NODE_MAX_TIMEOUT_MS - 1);
  t.same(fired, []);
  clock.tick(1);
  t.same(fired, ['edge']);
});

t.test('the default clock is Date.now', async (t) => {
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  t.teardown(() => clock.uninstall());
  const fired: MasterTimerEvent[] = [];
  const timers = new MasterTimers((e) => fired.push(e));
  t.equal(timers.nowMs(), START_MS, 'nowMs is the wall clock');
  timers.schedule(START_MS + 50, input('x'));
  clock.tick(49);
  t.equal(fired.length, 0);
  clock.tick(1);
  t.same(fired, [input('x')], 'posts the scheduled input itself');
});

t.test('armed timers do not keep the process alive (unref)', async (t) => {
  const timers = new MasterTimers(() => undefined);
  const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  timers.schedule(Date.now() + 60_000, input('x'));
  const after = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  timers.clear();
  t.equal(after, before, 'an unref\'d timer is not an active resource');
});
