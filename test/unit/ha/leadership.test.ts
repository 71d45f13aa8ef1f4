import t from 'tap';
import type { ElectionSource, ElectionState } from '../../../src/ha/leader-election';
import { Leadership, type LeaderDuties } from '../../../src/ha/leadership';
import { viaValues } from '../../../src/ha/leader-proxy';
import { leaderZnode } from '../../../src/cluster/mesos/zk/leader-znode';
import type { Scheduler } from '../../../src/scheduler/scheduler';

/** An election the test drives by hand. */
class FakeElection implements ElectionSource {
  current: ElectionState = { elected: false, leader: undefined };
  abdications = 0;
  private readonly listeners: ((s: ElectionState) => void)[] = [];
  onChange(listener: (s: ElectionState) => void): void {
    this.listeners.push(listener);
  }
  set(state: ElectionState): void {
    this.current = state;
    for (const l of this.listeners) l(state);
  }
  abdicate(): Promise<void> {
    this.abdications++;
    this.set({ elected: false, leader: this.current.leader });
    return Promise.resolve();
  }
  close(): void {}
}

/** Duties that log their start and stop into `events`. */
function dutiesInto(events: string[]): () => LeaderDuties {
  let n = 0;
  return () => {
    const term = ++n;
    events.push(`start ${term}`);
    return { scheduler: {} as Scheduler, submit: () => ({ ok: true }), frameworkId: () => undefined, stop: () => void events.push(`stop ${term}`) };
  };
}

t.test('the duties follow the election: started when elected, stopped in the same call that reports the loss', async (t) => {
  const election = new FakeElection();
  const events: string[] = [];
  const leadership = new Leadership(election, () => 'me:1', dutiesInto(events), (e) => void events.push(`fatal ${e.message}`));
  leadership.onTerm({ begun: () => void events.push('term begun'), ended: () => void events.push('term ended') });
  leadership.begin();
  t.equal(leadership.serving(), false);
  election.set({ elected: true, leader: 'me:1' });
  t.equal(leadership.serving(), true);
  t.same(events, ['start 1', 'term begun']);
  election.set({ elected: true, leader: 'me:1' });
  t.same(events, ['start 1', 'term begun'], 'no second start while leading');
  election.set({ elected: false, leader: 'me:1' });
  t.same(events, ['start 1', 'term begun', 'stop 1', 'term ended'], 'stopped synchronously');
  t.equal(leadership.serving(), false);
  t.equal(leadership.leader(), 'me:1', 'the leader as the election names it');
  election.set({ elected: true, leader: 'me:1' });
  t.same(events.slice(4), ['start 2', 'term begun'], 'elected again: a new term from the store');
  await leadership.abdicate();
  t.equal(election.abdications, 1);
  t.same(events.slice(6), ['stop 2', 'term ended']);
  leadership.stop();
  election.set({ elected: true, leader: 'me:1' });
  t.equal(leadership.serving(), false, 'stopped for good: no term after stop()');
});

t.test('a stale lease: the term goes on (no stop, no new start), nothing is served until it is fresh again', async (t) => {
  const election = new FakeElection();
  const events: string[] = [];
  const leadership = new Leadership(election, () => 'me:1', dutiesInto(events), (e) => void events.push(`fatal ${e.message}`));
  leadership.onTerm({ begun: () => void events.push('term begun'), ended: () => void events.push('term ended') });
  leadership.begin();
  election.set({ elected: true, leader: 'me:1' });
  t.equal(leadership.serving(), true);
  const woken = leadership.nextChange(60_000).then(() => 'woken');
  election.set({ elected: true, leader: 'me:1', stale: true });
  t.equal(leadership.serving(), false, 'stale: not serving');
  t.ok(leadership.current() !== undefined, 'the duties run on');
  t.equal(await woken, 'woken', 'a request waiting at the edge is told of the change');
  const fresh = leadership.nextChange(60_000).then(() => 'woken');
  election.set({ elected: true, leader: 'me:1', stale: false });
  t.equal(await fresh, 'woken', 'and again when the lease is fresh');
  t.equal(leadership.serving(), true, 'fresh again: serving');
  t.same(events, ['start 1', 'term begun'], 'one term throughout');
  election.set({ elected: true, leader: 'me:1', stale: true });
  election.set({ elected: false, leader: 'me:1' });
  t.same(events, ['start 1', 'term begun', 'stop 1', 'term ended'], 'a stale lease that ends (the teardown bound) stops the term as any loss does');
});

t.test('duties that cannot start are reported, and nothing serves', async (t) => {
  const election = new FakeElection();
  const failures: string[] = [];
  const leadership = new Leadership(election, () => 'me:1', () => { throw new Error('store is locked'); }, (e) => void failures.push(e.message));
  election.set({ elected: true, leader: 'me:1' });
  t.same(failures, ['store is locked']);
  t.equal(leadership.serving(), false);
});

t.test('a stop that throws still ends the term', async (t) => {
  const election = new FakeElection();
  const ended: string[] = [];
  const leadership = new Leadership(election, () => 'me:1', () => ({ scheduler: {} as Scheduler, submit: () => ({ ok: true }), frameworkId: () => undefined, stop: () => { throw new Error('close failed'); } }), () => undefined);
  leadership.onTerm({ begun: () => undefined, ended: () => void ended.push('ended') });
  election.set({ elected: true, leader: 'me:1' });
  t.throws(() => election.set({ elected: false, leader: undefined }), /close failed/);
  t.same(ended, ['ended']);
  t.equal(leadership.serving(), false);
});

t.test('nextChange resolves at the next change, or after its timeout', async (t) => {
  const election = new FakeElection();
  const leadership = new Leadership(election, () => 'me:1', dutiesInto([]), () => undefined);
  const waiting = leadership.nextChange(60_000);
  election.set({ elected: false, leader: 'other:1' });
  await waiting;
  await leadership.nextChange(1);
  t.pass('both resolved');
});

t.test('X-Marathon-Via values, whether several headers or one comma list', async (t) => {
  t.same(viaValues(undefined), []);
  t.same(viaValues('1.1 a:1'), ['1.1 a:1']);
  t.same(viaValues('1.1 a:1, 1.1 b:2'), ['1.1 a:1', '1.1 b:2']);
  t.same(viaValues(['1.1 a:1', '1.1 b:2,1.1 c:3']), ['1.1 a:1', '1.1 b:2', '1.1 c:3']);
});

t.test('the lowest latch- sequence leads; other names are ignored', async (t) => {
  t.equal(leaderZnode(['latch-0000000010', 'latch-0000000002', 'json.info_0000000001', 'latch-x'], 'latch-'), 'latch-0000000002');
  t.equal(leaderZnode(['json.info_0000000001'], 'latch-'), undefined);
  t.equal(leaderZnode(['json.info_0000000003', 'latch-0000000001']), 'json.info_0000000003', 'the Mesos default is unchanged');
});

/** Duties that start asynchronously: each start waits until the test resolves or rejects it. */
function asyncDutiesInto(events: string[]): { start: () => Promise<LeaderDuties>; pending: { resolve: () => void; reject: (e: Error) => void }[] } {
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let n = 0;
  const start = (): Promise<LeaderDuties> => {
    const term = ++n;
    events.push(`starting ${term}`);
    return new Promise((resolve, reject) => {
      pending.push({
        resolve: () => resolve({ scheduler: {} as Scheduler, submit: () => ({ ok: true }), frameworkId: () => undefined, stop: () => void events.push(`stop ${term}`) }),
        reject,
      });
    });
  };
  return { start, pending };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('duties that start asynchronously (the ZooKeeper store is read first): served once started, never if the term ended meanwhile', async (t) => {
  const election = new FakeElection();
  const events: string[] = [];
  const duties = asyncDutiesInto(events);
  const leadership = new Leadership(election, () => 'me:1', duties.start, (e) => void events.push(`fatal ${e.message}`));
  let changes = 0;
  leadership.onChange(() => void changes++);
  leadership.begin();
  election.set({ elected: true, leader: 'me:1' });
  t.equal(leadership.serving(), false, 'elected, not serving while the duties start');
  t.equal(leadership.startingTerm(), true);
  election.set({ elected: true, leader: 'me:1' });
  t.same(events, ['starting 1'], 'no second start while one is under way');
  const woken = leadership.nextChange(60_000);
  duties.pending[0]?.resolve();
  await woken;
  t.equal(leadership.serving(), true, 'serving once started; waiting requests are woken');
  t.ok(changes >= 3, 'the change is told to listeners (the proxy)');

  election.set({ elected: false, leader: 'other:2' });
  t.same(events, ['starting 1', 'stop 1']);
  election.set({ elected: true, leader: 'me:1' });
  election.set({ elected: false, leader: 'other:2' });
  t.equal(leadership.startingTerm(), false, 'the term ended while its duties started');
  duties.pending[1]?.resolve();
  await settle();
  t.same(events, ['starting 1', 'stop 1', 'starting 2', 'stop 2'], 'duties that arrive late are stopped at once');
  t.equal(leadership.serving(), false, 'and never served');

  election.set({ elected: true, leader: 'me:1' });
  duties.pending[2]?.reject(new Error('store refused'));
  await settle();
  t.same(events.slice(4), ['starting 3', 'fatal store refused'], 'a failed start of the current term is reported');
  election.set({ elected: false, leader: 'other:2' });
  election.set({ elected: true, leader: 'me:1' });
  election.set({ elected: false, leader: 'other:2' });
  duties.pending[3]?.reject(new Error('late failure'));
  await settle();
  t.notOk(events.includes('fatal late failure'), 'a failed start of an ended term is not');
});
