import t, { type Test } from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSandboxPath, SandboxGc, type GcClock } from '../../../src/cluster/local/sandbox-gc';

/*
 * The collector of finished sandboxes on a fake clock (no wall-clock waits): the delay, the count
 * bound (oldest first), the start-up adoption of leftovers (aged from their mtime), and what it
 * must never remove (live sandboxes, volumes/, anything outside the root).
 */

const DAY = 24 * 3600 * 1000;

/** A clock whose single pending timer the test fires by advancing `now`. */
class FakeClock implements GcClock {
  now = 1_000 * DAY;
  timers = new Map<number, number>();
  private seq = 0;
  gc: SandboxGc | undefined;
  nowMs(): number {
    return this.now;
  }
  schedule(dueMs: number): number {
    this.timers.set(++this.seq, dueMs);
    return this.seq;
  }
  cancel(id: number): void {
    this.timers.delete(id);
  }
  /** Move time on and fire what is due. */
  advance(ms: number): void {
    this.now += ms;
    for (const [id, due] of [...this.timers]) {
      if (due > this.now) continue;
      this.timers.delete(id);
      this.gc?.collect();
    }
  }
}

function setup(t: Test, keep = 1000, live: string[] = []): { root: string; clock: FakeClock; gc: SandboxGc; dir: (name: string) => string; logs: string[] } {
  const base = mkdtempSync(join(tmpdir(), 'pacer-gc-'));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'sandboxes');
  mkdirSync(root);
  const clock = new FakeClock();
  const logs: string[] = [];
  const gc = new SandboxGc(root, { delayMs: 7 * DAY, keep, clock, liveSandboxes: () => new Set(live), log: (l) => logs.push(l) });
  clock.gc = gc;
  const dir = (name: string): string => {
    const d = join(root, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'stdout'), 'out');
    return d;
  };
  return { root, clock, gc, dir, logs };
}

t.test('the delay removes a finished sandbox and keeps a running one', (t) => {
  const live: string[] = [];
  const { clock, gc, dir } = setup(t, 1000, live);
  const done = dir('app.done');
  const running = dir('app.running');
  live.push(running);
  gc.finish(done, clock.now);
  clock.advance(7 * DAY - 1);
  t.ok(existsSync(done), 'kept until the delay is over');
  clock.advance(1);
  t.notOk(existsSync(done), 'removed once the delay is over');
  t.ok(existsSync(running), 'a running task\'s sandbox is untouched');
  t.equal(gc.size, 0);
  t.equal(clock.timers.size, 0, 'no timer left once nothing waits');
  t.end();
});

t.test('a sandbox recorded as live is never removed, even when handed over as finished', (t) => {
  const live: string[] = [];
  const { clock, gc, dir } = setup(t, 0, live);
  const s = dir('app.live');
  live.push(s);
  gc.finish(s, clock.now);
  t.ok(existsSync(s));
  t.end();
});

t.test('the count bound removes the oldest first, at once', (t) => {
  const { clock, gc, dir } = setup(t, 2);
  const a = dir('a');
  const b = dir('b');
  const c = dir('c');
  gc.finish(b, clock.now - 2000);
  gc.finish(c, clock.now - 1000);
  gc.finish(a, clock.now - 3000);
  t.notOk(existsSync(a), 'the oldest goes, though handed over last');
  t.ok(existsSync(b));
  t.ok(existsSync(c));
  t.equal(gc.size, 2);
  const d = dir('d');
  gc.finish(d, clock.now);
  t.notOk(existsSync(b), 'then the next oldest');
  t.ok(existsSync(c) && existsSync(d));
  t.end();
});

t.test('start-up: leftovers age from their mtime under both bounds; live ones and volumes/ are untouched', (t) => {
  const { root, clock, gc, dir } = setup(t, 2);
  const old = dir('old');
  const older = dir('older');
  const recent = dir('recent');
  const newest = dir('newest');
  const live = dir('live');
  const vol = join(root, 'volumes', 'agent-1', 'p1');
  mkdirSync(vol, { recursive: true });
  writeFileSync(join(vol, 'data'), 'keep me');
  writeFileSync(join(root, 'local-cluster.json'), '{}');
  const at = (path: string, ms: number): void => utimesSync(path, ms / 1000, ms / 1000);
  at(older, clock.now - 9 * DAY);
  at(old, clock.now - 3 * DAY);
  at(recent, clock.now - 2 * DAY);
  at(newest, clock.now - 1 * DAY);
  at(live, clock.now - 30 * DAY);
  at(join(root, 'volumes'), clock.now - 30 * DAY);
  gc.adoptLeftovers(new Set([live]));
  t.notOk(existsSync(older), 'past the delay: removed at once');
  t.notOk(existsSync(old), 'beyond the count: the oldest removed');
  t.ok(existsSync(recent) && existsSync(newest), 'the newest 2 kept');
  t.ok(existsSync(live), 'a live recorded task\'s sandbox is kept');
  t.ok(existsSync(join(vol, 'data')), 'volumes/ is untouched');
  t.ok(existsSync(join(root, 'local-cluster.json')), 'files of the root are not sandboxes');
  clock.advance(5 * DAY);
  t.notOk(existsSync(recent), 'the delay runs from the mtime');
  t.ok(existsSync(newest));
  clock.advance(1 * DAY);
  t.notOk(existsSync(newest));
  t.ok(existsSync(join(vol, 'data')) && existsSync(live));
  t.end();
});

t.test('nothing outside the root, nor volumes/, is ever removed', (t) => {
  const { root, clock, gc } = setup(t, 0);
  const outside = join(root, '..', 'outside');
  mkdirSync(outside);
  gc.finish(join(root, '..'), clock.now);
  gc.finish(outside, clock.now);
  gc.finish(join(root, 'volumes'), clock.now);
  mkdirSync(join(root, 'volumes'));
  gc.finish(join(root, 'volumes'), clock.now);
  t.ok(existsSync(outside) && existsSync(root) && existsSync(join(root, 'volumes')));
  t.notOk(isSandboxPath(root, join(root, '..')));
  t.notOk(isSandboxPath(root, join(root, 'a', '..', '..', 'x')));
  t.notOk(isSandboxPath(root, join(root, 'a', 'b')));
  t.notOk(isSandboxPath(root, root));
  t.ok(isSandboxPath(root, join(root, 'app.1')));
  t.end();
});

t.test('close cancels the timer', (t) => {
  const { clock, gc, dir } = setup(t);
  gc.finish(dir('x'), clock.now);
  t.equal(clock.timers.size, 1);
  gc.close();
  t.equal(clock.timers.size, 0);
  t.end();
});

t.test('one timer is armed however many tasks finish (each finish used to leave the last one armed)', (t) => {
  const { clock, gc, dir } = setup(t);
  for (let i = 0; i < 50; i++) {
    gc.finish(dir(`app.${i}`), clock.now);
    clock.now += 1000;
  }
  t.equal(gc.size, 50);
  t.equal(clock.timers.size, 1, 'only the timer of the oldest sandbox waits');
  t.same([...clock.timers.keys()], [1], 'armed once: a later sandbox does not re-arm it');
  t.same([...clock.timers.values()], [clock.now - 50 * 1000 + 7 * DAY], 'due when the oldest is');
  clock.advance(7 * DAY);
  t.equal(gc.size, 0, 'all collected');
  t.equal(clock.timers.size, 0, 'and nothing left armed');
  t.end();
});

t.test('past the count bound, each finish removes the oldest without arming the timer again', (t) => {
  const { clock, gc, dir } = setup(t, 10);
  for (let i = 0; i < 50; i++) {
    gc.finish(dir(`app.${i}`), clock.now);
    clock.now += 1000;
  }
  t.equal(gc.size, 10, 'the count bound holds');
  t.same([...clock.timers.keys()], [1], 'the first timer still waits: it fires early, sweeps nothing and is armed again');
  clock.advance(7 * DAY - 50 * 1000);
  t.equal(gc.size, 10, 'the early firing removed nothing');
  t.equal(clock.timers.size, 1, 'and armed the timer for the oldest left');
  clock.advance(50 * 1000);
  t.equal(gc.size, 0, 'all collected when due');
  t.equal(clock.timers.size, 0);
  t.end();
});
