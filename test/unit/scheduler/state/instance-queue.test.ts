import t from 'tap';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { InstanceQueue } from '../../../../src/scheduler/state/instance-queue';

const inst = (n: number) => ({ instanceId: `i${n}` }) as Instance;

t.test('FIFO through compaction; remove anywhere', async (t) => {
  const q = new InstanceQueue();
  const all = Array.from({ length: 3000 }, (_, i) => inst(i));
  for (const i of all) q.push(i);
  const shifted: Instance[] = [];
  for (let n = 0; n < 2000; n++) shifted.push(q.shift() as Instance);
  t.ok(shifted.every((x, n) => x === all[n]), 'first in, first out');
  t.equal(q.length, 1000, 'compacted without losing entries');
  q.remove(all[2500]);
  q.remove(all[2500]);
  t.equal(q.length, 999, 'removing twice is a no-op');
  const rest = q.toArray().map((i) => i.instanceId);
  t.equal(rest[0], 'i2000');
  t.notOk(rest.includes('i2500'));
  while (q.shift() !== undefined);
  t.equal(q.length, 0);
  t.equal(q.shift(), undefined);
});

t.test('removed instances are never returned, wherever they were, across compactions', async (t) => {
  // [queue size, which to remove] — head-first (a delete), tail-first (a youngest-first scale-down), every third.
  const cases: [string, number, (n: number) => boolean, boolean][] = [
    ['head first', 5000, (n) => n < 4000, false],
    ['tail first', 5000, (n) => n >= 1000, true],
    ['every third', 5000, (n) => n % 3 === 0, false],
    ['all', 3000, () => true, false],
  ];
  for (const [name, size, drop, reverse] of cases) {
    const q = new InstanceQueue();
    const all = Array.from({ length: size }, (_, i) => inst(i));
    for (const i of all) q.push(i);
    const victims = all.filter((_, n) => drop(n));
    for (const v of reverse ? [...victims].reverse() : victims) q.remove(v);
    const kept = all.filter((_, n) => !drop(n));
    t.equal(q.length, kept.length, `${name}: length`);
    t.strictSame(q.toArray(), kept, `${name}: toArray`);
    t.equal(q.peek(), kept[0], `${name}: peek`);
    const out: Instance[] = [];
    for (let x = q.shift(); x !== undefined; x = q.shift()) out.push(x);
    t.strictSame(out, kept, `${name}: shifted in order`);
    q.push(all[0]);
    t.equal(q.length, 1, `${name}: usable after draining`);
  }
});

t.test('an instance removed and queued again comes out once, at its new place', async (t) => {
  const q = new InstanceQueue();
  const [a, b, c] = [inst(1), inst(2), inst(3)];
  q.push(a);
  q.push(b);
  q.remove(a);
  q.push(c);
  q.push(a);
  t.equal(q.length, 3);
  t.strictSame(q.toArray(), [b, c, a]);
  t.strictSame([q.shift(), q.shift(), q.shift(), q.shift()], [b, c, a, undefined]);
});

t.test('version: changes with every push, shift and remove, not with peek (the matcher keeps the head while it stays)', async (t) => {
  const q = new InstanceQueue();
  const [a, b, c] = [inst(1), inst(2), inst(3)];
  const steps: [string, () => void, boolean][] = [
    ['push', () => q.push(a), true],
    ['push another', () => { q.push(b); q.push(c); }, true],
    ['peek', () => q.peek(), false],
    ['length', () => q.length, false],
    ['remove the head', () => q.remove(a), true],
    ['remove it again (no-op)', () => q.remove(a), false],
    ['peek past the removed head', () => t.equal(q.peek(), b), false],
    ['shift', () => t.equal(q.shift(), b), true],
    ['remove the last', () => q.remove(c), true],
  ];
  for (const [name, step, changes] of steps) {
    const before = q.version;
    step();
    t.equal(q.version !== before, changes, `${name}: version ${changes ? 'changes' : 'stays'}`);
  }
});
