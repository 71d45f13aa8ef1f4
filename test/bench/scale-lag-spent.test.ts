import { performance } from 'node:perf_hooks';
import t from 'tap';
import { timeSpent } from '../../bench/scale-lag';
import type { RunSession } from '../../sim/runner/run-scenario';

// bench:scale-lag's "time in pacer's core … (longest: …)": the longest of the core's inputs and
// the API's commands is named, whichever it is (a POST's command longer than every later input
// once left it blank).

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* a core input that takes `ms` */ }
};

/** A clock a test moves by hand: the inputs' and commands' times are exact, whatever the machine's load. */
class FakeClock {
  ms = 0;
  readonly now = (): number => this.ms;
}

/**
 * A session whose commands take `commandMs` and whose steps are each one status input of
 * `stepMs`: on `clock` when given (exact), else really (busy, for the ticker's test).
 */
function fakeSession(commandMs: number, stepMs: number, clock?: FakeClock): RunSession {
  const spend = (ms: number): void => {
    if (clock === undefined) busy(ms);
    else clock.ms += ms;
  };
  const inputs: ((atMs: number, input: unknown) => void)[] = [];
  const session = {
    cluster: { accept: (): void => undefined },
    onInput: (listener: (atMs: number, input: unknown) => void): void => void inputs.push(listener),
    onEvent: (): void => undefined,
    step: (): boolean => {
      for (const l of inputs) l(0, { type: 'status' });
      spend(stepMs);
      return true;
    },
    submit: (): unknown => {
      spend(commandMs);
      return { ok: true };
    },
  };
  return session as unknown as RunSession;
}

t.test('a command longer than every input is named the longest', async (t) => {
  const clock = new FakeClock();
  const session = fakeSession(20, 1, clock);
  const spent = timeSpent(session, clock.now);
  t.teardown(() => spent.close());
  spent.reset();
  session.submit({ type: 'putRunSpec' } as never);
  for (let i = 0; i < 3; i++) session.step(0);
  const f = spent.figures();
  t.equal(f.coreInputs, 4, 'the command and three inputs');
  t.equal(f.longestInput, 'command:putRunSpec');
  t.equal(f.pacer.maxMs, 20, 'its time is the longest');
});

t.test('an input longer than the command is named the longest', async (t) => {
  const clock = new FakeClock();
  const session = fakeSession(1, 20, clock);
  const spent = timeSpent(session, clock.now);
  t.teardown(() => spent.close());
  spent.reset();
  session.submit({ type: 'putRunSpec' } as never);
  session.step(0);
  t.equal(spent.figures().longestInput, 'status');
  spent.reset();
  t.equal(spent.figures().longestInput, '', 'nothing since the reset, nothing named');
});

t.test('the ticker\'s longest gap agrees with the stretches it lists', async (t) => {
  const session = fakeSession(1, 1);
  const spent = timeSpent(session);
  t.teardown(() => spent.close());
  spent.reset();
  await new Promise((resolve) => setTimeout(resolve, 20));
  busy(70); // the loop blocked: one gap of more than 50 ms
  await new Promise((resolve) => setTimeout(resolve, 20));
  const f = spent.figures();
  t.ok(f.tickerMaxGapMs > 50, `a gap of more than 50 ms (${f.tickerMaxGapMs} ms)`);
  t.ok(f.stretches.length >= 1 && f.stretches.every((s) => s.wallMs <= f.tickerMaxGapMs), 'listed, none longer than the longest gap');
});
