import t from 'tap';
import { LoginGuard, loginSource } from '../../../src/api/auth/login-guard';
import { ScryptGate } from '../../../src/api/auth/scrypt-gate';

/** A guard on a clock the test moves by hand. */
function guardAt(options: { failures: number; windowMs: number; maxSources?: number }): { guard: LoginGuard; clock: { nowMs: number } } {
  const clock = { nowMs: 1_000 };
  return { guard: new LoginGuard({ ...options, nowMs: () => clock.nowMs }), clock };
}

t.test('a source is refused after N failures until its window, from its first failure, ends', async (tt) => {
  // Each step: move the clock to `atMs` (from the start), then fail or ask; `wait` is retryAfterMs.
  const steps: ReadonlyArray<{ readonly atMs: number; readonly op: 'fail' | 'ask'; readonly wait?: number }> = [
    { atMs: 0, op: 'ask' },
    { atMs: 0, op: 'fail' },
    { atMs: 100, op: 'fail' },
    { atMs: 200, op: 'ask' }, // 2 of 3: may still try
    { atMs: 300, op: 'fail' },
    { atMs: 300, op: 'ask', wait: 9_700 }, // 3 of 3 within the window that began at 0
    { atMs: 9_999, op: 'ask', wait: 1 },
    { atMs: 10_000, op: 'ask' }, // the window ended
    { atMs: 10_000, op: 'fail' }, // a new window, 1 of 3
    { atMs: 10_001, op: 'ask' },
  ];
  const { guard, clock } = guardAt({ failures: 3, windowMs: 10_000 });
  for (const [i, step] of steps.entries()) {
    clock.nowMs = 1_000 + step.atMs;
    if (step.op === 'fail') guard.recordFailure('192.0.2.1');
    else tt.equal(guard.retryAfterMs('192.0.2.1'), step.wait, `step ${i} at ${step.atMs} ms`);
  }
  tt.equal(guard.retryAfterMs('192.0.2.2'), undefined, 'another source is not affected');
});

t.test('the table is bounded: ended windows are dropped, and the oldest live one beyond the bound', async (tt) => {
  const { guard, clock } = guardAt({ failures: 1, windowMs: 1_000, maxSources: 3 });
  for (const source of ['a', 'b', 'c']) guard.recordFailure(source);
  tt.equal(guard.size, 3);
  guard.recordFailure('d');
  tt.equal(guard.size, 3, 'one more source: still 3 kept');
  tt.equal(guard.retryAfterMs('a'), undefined, 'the oldest (a) was dropped: it may try again');
  tt.ok(guard.retryAfterMs('b') !== undefined && guard.retryAfterMs('d') !== undefined, 'the others are still refused');
  clock.nowMs += 1_000;
  guard.recordFailure('e');
  tt.equal(guard.size, 1, 'every ended window is dropped as a new one starts');
  // A flood of 100,000 sources keeps at most the bound.
  const flood = guardAt({ failures: 5, windowMs: 60_000, maxSources: 1_000 }).guard;
  for (let i = 0; i < 100_000; i++) flood.recordFailure(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
  tt.equal(flood.size, 1_000);
});

t.test('a repeated failure in a live window does not move its source to the back of the order', async (tt) => {
  const { guard } = guardAt({ failures: 2, windowMs: 1_000, maxSources: 2 });
  guard.recordFailure('a');
  guard.recordFailure('b');
  guard.recordFailure('a'); // a: 2 of 2, window still the first one
  guard.recordFailure('c'); // drops the window that began first: a's
  tt.equal(guard.retryAfterMs('a'), undefined);
  tt.equal(guard.size, 2);
});

t.test('onBlocked is told once per source and window, when its failures reach the limit', async (tt) => {
  const blocked: string[] = [];
  const clock = { nowMs: 1_000 };
  const guard = new LoginGuard({ failures: 2, windowMs: 10_000, nowMs: () => clock.nowMs, onBlocked: (source, leftMs) => void blocked.push(`${source} ${leftMs}`) });
  guard.recordFailure('192.0.2.1');
  tt.same(blocked, [], 'one failure of two: not blocked');
  clock.nowMs += 4_000;
  guard.recordFailure('192.0.2.1');
  tt.same(blocked, ['192.0.2.1 6000'], 'the second failure blocks it for what is left of its window');
  // Requests already being checked as it was blocked fail too: the count passes the limit, no new line.
  for (let i = 0; i < 50; i++) guard.recordFailure('192.0.2.1');
  guard.recordFailure('192.0.2.2');
  tt.same(blocked, ['192.0.2.1 6000'], 'once per window, and not for a source below the limit');
  clock.nowMs += 6_000;
  guard.recordFailure('192.0.2.1');
  guard.recordFailure('192.0.2.1');
  tt.same(blocked, ['192.0.2.1 6000', '192.0.2.1 10000'], 'a new window: told again when it reaches the limit again');
  const once: string[] = [];
  const strict = new LoginGuard({ failures: 1, windowMs: 1_000, nowMs: () => clock.nowMs, onBlocked: (source) => void once.push(source) });
  for (let i = 0; i < 3; i++) strict.recordFailure('a');
  tt.same(once, ['a'], 'a limit of 1: told at the first failure, once');
});

t.test('loginSource: IPv4 as it is, IPv4-mapped as IPv4, IPv6 by its /64', async (tt) => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:DB8::1', '2001:db8:0:0::/64'],
    ['2001:db8::1%eth0', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1:2:3:4', 'fe80:0:0:0::/64'],
    ['', ''],
  ];
  for (const [address, source] of cases) tt.equal(loginSource(address), source, address || '(none)');
});

/** A piece of work the test ends by hand. */
function held(): { work: () => Promise<string>; end: (value: string) => void } {
  let end: (value: string) => void = () => undefined;
  const promise = new Promise<string>((resolve) => { end = resolve; });
  return { work: () => promise, end };
}

t.test('scrypt gate: N runs at once, M waiting in order, busy beyond', async (tt) => {
  const gate = new ScryptGate(2, 1);
  const a = held();
  const b = held();
  const c = held();
  const ra = gate.run(a.work);
  const rb = gate.run(b.work);
  const rc = gate.run(c.work);
  await Promise.resolve();
  tt.same(gate.load, { running: 2, waiting: 1 });
  tt.equal(await gate.run(async () => 'never'), 'busy', 'one more than runs + waiting: busy at once');
  tt.equal(gate.started, 2, 'the busy one never started');
  a.end('a');
  tt.equal(await ra, 'a');
  await Promise.resolve();
  tt.same(gate.load, { running: 2, waiting: 0 }, 'the waiting one took the freed run');
  tt.equal(gate.started, 3);
  b.end('b');
  c.end('c');
  tt.same([await rb, await rc], ['b', 'c']);
  tt.same(gate.load, { running: 0, waiting: 0 });
  const failing = gate.run(async () => { throw new Error('scrypt failed'); });
  await tt.rejects(failing, /scrypt failed/);
  tt.same(gate.load, { running: 0, waiting: 0 }, 'a failed run frees its place');
});
