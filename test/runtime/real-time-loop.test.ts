import FakeTimers from '@sinonjs/fake-timers';
import t, { type Test } from 'tap';
import { CoreFailure } from '../../src/runtime/core-failure';
import { RealTimeLoop, type InputHandler, type RealTimeLoopOptions } from '../../src/runtime/real-time-loop';
import { AssertionError } from '../../src/scheduler/kernel/assert';
import type { CommandResult, SchedulerInput, TimerInput } from '../../src/scheduler/model/inputs';

type FakeClock = ReturnType<typeof FakeTimers.install>;

const START_MS = 1_700_000_000_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A timer input whose run spec id names it. */
function named(name: string): TimerInput {
  return { type: 'timer', timer: { kind: 'backoffExpired', runSpecId: name } };
}

/** A command (what the API submits) named `name`. */
function command(name: string): SchedulerInput {
  return { type: 'resetDelay', runSpecId: name };
}

function nameOf(input: SchedulerInput): string {
  if (input.type === 'timer' && input.timer.kind === 'backoffExpired') return input.timer.runSpecId;
  if (input.type === 'resetDelay') return `cmd:${input.runSpecId}`;
  return input.type;
}

/** A fake core: logs what it handles, with the loop's clock, and runs `during[x]` while handling x. */
class RecordingCore implements InputHandler {
  readonly log: string[] = [];
  readonly times: number[] = [];
  depth = 0;
  maxDepth = 0;
  readonly during: Record<string, () => void> = {};
  result: CommandResult | undefined = undefined;

  constructor(private readonly clock: { nowMs(): number }) {}

  handle(input: SchedulerInput): CommandResult | undefined {
    const name = nameOf(input);
    this.depth++;
    this.maxDepth = Math.max(this.maxDepth, this.depth);
    this.log.push(name);
    this.times.push(this.clock.nowMs());
    try {
      this.during[name]?.();
    } finally {
      this.depth--;
    }
    return this.result;
  }
}

/** A loop on a fake clock (setTimeout, setImmediate and Date faked) with a recording core attached. */
function attached(t: Test, options: RealTimeLoopOptions = {}): { clock: FakeClock; loop: RealTimeLoop; core: RecordingCore } {
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
  t.teardown(() => clock.uninstall());
  const loop = new RealTimeLoop({ wallMs: () => clock.now, ...options });
  const core = new RecordingCore(loop);
  loop.attach(core);
  return { clock, loop, core };
}

t.test('timers are entries: handled in (dueMs, seq) order, each once, when the clock reaches them', async (t) => {
  const { clock, loop, core } = attached(t);
  loop.schedule(START_MS + 300, named('c'));
  loop.schedule(START_MS + 100, named('a'));
  loop.schedule(START_MS + 200, named('b'));
  loop.schedule(START_MS + 200, named('b2'));
  t.equal(loop.size, 4);
  clock.tick(99);
  t.same(core.log, [], 'nothing before the first due time');
  clock.tick(1);
  t.same(core.log, ['a']);
  t.same(core.times, [START_MS + 100], 'the core reads the instant it was taken up');
  clock.tick(200);
  t.same(core.log, ['a', 'b', 'b2', 'c'], 'equal due times keep their scheduling order');
  t.equal(loop.size, 0);
  clock.tick(DAY_MS);
  t.same(core.log, ['a', 'b', 'b2', 'c'], 'none twice');
  t.equal(loop.handled, 4);
});

t.test('one Node timer is armed at a time, for the earliest entry', async (t) => {
  const { clock, loop } = attached(t);
  for (let i = 1; i <= 50; i++) loop.schedule(START_MS + i * 1000, named(`t${i}`));
  t.equal(clock.countTimers(), 1, 'fifty entries, one timer');
  loop.schedule(START_MS + 10, named('earlier'));
  t.equal(clock.countTimers(), 1, 're-armed for the earlier one, still one');
  loop.post(named('now'));
  t.equal(clock.countTimers(), 1, 'an input due now: one wake-up at once');
});

t.test('a posted input is handled on a later turn, never inside post(), after what was due before it', async (t) => {
  const { clock, loop, core } = attached(t);
  loop.schedule(START_MS - 5000, named('late-timer'));
  loop.post(named('a'));
  loop.post(named('b'));
  t.same(core.log, [], 'not handled synchronously');
  clock.tick(0);
  t.same(core.log, ['late-timer', 'a', 'b'], 'an overdue timer first, then the posts in order');
});

t.test('no re-entrancy: inputs posted while one is handled wait their turn, in order', async (t) => {
  const { clock, loop, core } = attached(t);
  core.during.a = () => {
    loop.post(named('b'));
    loop.schedule(START_MS, named('timer-due-now'));
    loop.post(named('c'));
    t.same(core.log, ['a'], 'not handled inside a');
  };
  loop.post(named('a'));
  clock.tick(0);
  t.same(core.log, ['a', 'b', 'timer-due-now', 'c']);
  t.equal(core.maxDepth, 1, 'the core was never re-entered');
});

t.test('inputs posted before attach wait for the core', async (t) => {
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
  t.teardown(() => clock.uninstall());
  const loop = new RealTimeLoop({ wallMs: () => clock.now });
  loop.post(named('a'));
  clock.tick(10);
  t.equal(loop.handled, 0, 'nothing without a core');
  const core = new RecordingCore(loop);
  loop.attach(core);
  clock.tick(0);
  t.same(core.log, ['a']);
});

t.test('the clock: fixed while an input is handled, the wall clock between, never backwards', async (t) => {
  let wall = START_MS;
  const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
  t.teardown(() => clock.uninstall());
  const loop = new RealTimeLoop({ wallMs: () => wall });
  const seen: number[] = [];
  loop.attach({ handle: () => { seen.push(loop.nowMs()); wall += 50; seen.push(loop.nowMs()); return undefined; } });
  t.equal(loop.nowMs(), START_MS, 'between inputs: the wall clock');
  loop.post(named('a'));
  clock.tick(0);
  t.same(seen, [START_MS, START_MS], 'one instant for the whole input, though the wall clock moved');
  t.equal(loop.nowMs(), START_MS + 50);
  wall = START_MS - DAY_MS;
  t.equal(loop.nowMs(), START_MS + 50, 'a wall clock set back does not move the loop back');
});

t.test('cancel removes an entry; unknown or repeated cancels are harmless', async (t) => {
  const { clock, loop, core } = attached(t);
  const a = loop.schedule(START_MS + 10, named('a'));
  const b = loop.schedule(START_MS + 20, named('b'));
  t.not(a, b);
  loop.cancel(a);
  loop.cancel(a);
  loop.cancel(12345);
  clock.tick(30);
  t.same(core.log, ['b']);
});

t.test('an entry beyond Node\'s timer limit waits in steps and is handled at its due time', async (t) => {
  const { clock, loop, core } = attached(t);
  loop.schedule(START_MS + 30 * DAY_MS, named('month'));
  clock.tick(25 * DAY_MS);
  t.same(core.log, [], 'not after Node\'s 24.8-day limit');
  clock.tick(5 * DAY_MS - 1);
  t.same(core.log, []);
  clock.tick(1);
  t.same(core.log, ['month']);
});

t.test('submit handles what is due first, then the command, and returns its result; only commands are atomic', async (t) => {
  const wrapped: string[] = [];
  const { loop, core } = attached(t, { atomically: (fn) => { wrapped.push('tx'); return fn(); } });
  loop.post(named('status'));
  loop.schedule(START_MS + 60_000, named('later'));
  t.same(loop.submit(command('x')), { ok: true }, 'undefined from the core reads as ok');
  t.same(core.log, ['status', 'cmd:x'], 'the due post first; the later timer waits');
  t.same(wrapped, ['tx'], 'one transaction: the command');
  const refused: CommandResult = { ok: false, error: 'unknown-run-spec', message: 'App \'/x\' does not exist' };
  core.result = refused;
  t.equal(loop.submit(command('x')), refused, 'the core\'s result as it is');
});

t.test('submit drains what was queued and due before it, not what that queues in turn (a big change goes on after the command)', async (t) => {
  // A core input that re-arms itself due at once (continueChanges, continueOffers, continueReconcile)
  // `rounds` times: submit must not run the whole chain before the command.
  const cases: { name: string; queued: string[]; rounds: number; before: string[] }[] = [
    { name: 'nothing queued', queued: [], rounds: 0, before: [] },
    { name: 'due posts, none re-arming', queued: ['a', 'b'], rounds: 0, before: ['a', 'b'] },
    { name: 'a chain of 1,000 rounds: only its queued round runs first', queued: ['chain'], rounds: 1000, before: ['chain'] },
    { name: 'a chain and a post queued behind it: both queued, both first', queued: ['chain', 'a'], rounds: 1000, before: ['chain', 'a'] },
  ];
  for (const c of cases) {
    const clock = FakeTimers.install({ now: START_MS, toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
    try {
      const loop = new RealTimeLoop({ wallMs: () => clock.now });
      const core = new RecordingCore(loop);
      let left = c.rounds;
      core.during.chain = () => {
        if (left-- > 0) loop.schedule(loop.nowMs(), named('chain'));
      };
      loop.attach(core);
      for (const q of c.queued) loop.post(named(q));
      loop.submit(command('x'));
      t.same(core.log, [...c.before, 'cmd:x'], `${c.name}: what was queued, then the command`);
      clock.runAll();
      t.equal(core.log.filter((n) => n === 'chain').length, c.rounds + (c.queued.includes('chain') ? 1 : 0), `${c.name}: the chain goes on to its end afterwards`);
    } finally {
      clock.uninstall();
    }
  }
});

t.test('submit before attach, after close, or from inside an input is refused', async (t) => {
  t.throws(() => new RealTimeLoop().submit(command('x')), { message: 'the scheduler is not started yet' });
  const { clock, loop, core } = attached(t);
  let thrown: unknown;
  core.during.a = () => {
    try {
      loop.submit(command('inner'));
    } catch (err) {
      thrown = err;
    }
  };
  loop.post(named('a'));
  clock.tick(0);
  t.match(thrown, { message: /re-entrant/ });
  t.same(loop.submit(command('later')), { ok: true }, 'the loop still works');
  loop.close();
  t.throws(() => loop.submit(command('x')), { message: 'the scheduler is shutting down' });
});

t.test('close drops what waits and ignores later posts', async (t) => {
  const { clock, loop, core } = attached(t);
  loop.post(named('a'));
  loop.schedule(START_MS + 10, named('b'));
  loop.close();
  loop.post(named('c'));
  clock.tick(100);
  t.same(core.log, []);
  t.equal(loop.size, 0);
  t.equal(clock.countTimers(), 0, 'no timer left armed');
});

t.test('observers see every input, with the instant the core reads, before and after it is handled', async (t) => {
  const { clock, loop, core } = attached(t);
  const seen: string[] = [];
  loop.observe({
    beforeInput: (atMs, input) => seen.push(`before ${nameOf(input)} @${atMs - START_MS} (handled: ${core.log.length})`),
    afterInput: (atMs, input) => seen.push(`after ${nameOf(input)} @${atMs - START_MS} (handled: ${core.log.length})`),
  });
  loop.schedule(START_MS + 5, named('timer'));
  clock.tick(5);
  loop.submit(command('x'));
  t.same(seen, ['before timer @5 (handled: 0)', 'after timer @5 (handled: 1)', 'before cmd:x @5 (handled: 1)', 'after cmd:x @5 (handled: 2)']);
});

t.test('a core that throws: the failure, with its input and time, goes to onFailure; the loop closes', async (t) => {
  const failures: CoreFailure[] = [];
  const { clock, loop, core } = attached(t, { onFailure: (f) => failures.push(f) });
  const seen: string[] = [];
  loop.observe({ beforeInput: (_at, input) => seen.push(nameOf(input)) });
  core.during.boom = () => {
    throw new AssertionError('the books disagree');
  };
  loop.schedule(START_MS + 7, named('boom'));
  loop.schedule(START_MS + 7, named('after-boom'));
  clock.tick(7);
  t.equal(failures.length, 1);
  const [failure] = failures;
  t.ok(failure instanceof CoreFailure);
  t.same(failure.input, named('boom'), 'the input that failed');
  t.equal(failure.atMs, START_MS + 7, 'and the clock the core read');
  t.ok(failure.isAssertion);
  t.equal(failure.message, 'assertion failed: the books disagree (while handling a timer input)');
  t.match(failure.stack, /^AssertionError: assertion failed: the books disagree\n\s+at /, 'the assertion\'s stack');
  t.same(seen, ['boom'], 'the observer saw the failing input first (a recorder keeps it)');
  t.same(core.log, ['boom'], 'nothing after it reaches the core');
  loop.post(named('later'));
  clock.tick(100);
  t.same(core.log, ['boom']);
  t.throws(() => loop.submit(command('x')), failure, 'submit throws the failure');
});

t.test('a command that fails the core: onFailure, then the failure is thrown to the caller', async (t) => {
  const failures: CoreFailure[] = [];
  const { loop, core } = attached(t, { onFailure: (f) => failures.push(f) });
  core.during['cmd:bad'] = () => {
    throw new AssertionError('bad');
  };
  t.throws(() => loop.submit(command('bad')), { name: 'CoreFailure', input: command('bad') });
  t.equal(failures.length, 1);
});

t.test('without onFailure the failure goes up to whoever drove the loop', async (t) => {
  const { loop, core } = attached(t);
  core.during['cmd:bad'] = () => {
    throw new Error('store broke');
  };
  t.throws(() => loop.submit(command('bad')), { name: 'CoreFailure', message: 'store broke (while handling a resetDelay input)' });
});
