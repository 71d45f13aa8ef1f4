import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

t.test('pushAll queues a batch as pushes one by one would: order, length, version, removal, compaction', async (t) => {
  // Each case: batches (or single instances) queued, then how many shifted, then which removed.
  const cases: { name: string; batches: number[][]; shift: number; remove: number[] }[] = [
    { name: 'an empty batch', batches: [[]], shift: 0, remove: [] },
    { name: 'one batch', batches: [[1, 2, 3]], shift: 1, remove: [3] },
    { name: 'batches and singles', batches: [[1], [2, 3, 4], [5], [], [6, 7]], shift: 2, remove: [4, 7] },
    { name: 'big batches across compactions', batches: [Array.from({ length: 3000 }, (_, i) => i), Array.from({ length: 2000 }, (_, i) => 3000 + i)], shift: 2500, remove: [2600, 4999, 3000] },
  ];
  for (const c of cases) {
    const made = new Map<number, Instance>();
    const of = (n: number): Instance => made.get(n) ?? (made.set(n, inst(n)), made.get(n) as Instance);
    const batched = new InstanceQueue();
    const single = new InstanceQueue();
    for (const b of c.batches) {
      batched.pushAll(b.map(of));
      for (const n of b) single.push(of(n));
    }
    t.equal(batched.version, single.version, `${c.name}: version`);
    for (let n = 0; n < c.shift; n++) t.equal(batched.shift(), single.shift(), `${c.name}: shift ${n}`);
    for (const n of c.remove) {
      batched.remove(of(n));
      single.remove(of(n));
    }
    t.equal(batched.length, single.length, `${c.name}: length`);
    t.strictSame(batched.toArray(), single.toArray(), `${c.name}: what is left, in order`);
    t.equal(batched.peek(), single.peek(), `${c.name}: peek`);
  }
});

t.test('an instance removed, queued again and removed again is gone (swarm seed 31015)', async (t) => {
  // The second removal was taken for a repeat of the first while the first's tombstone was still
  // there: the launched instance stayed in the queue.
  const cases: { name: string; requeue: (q: InstanceQueue, i: Instance) => void }[] = [
    { name: 'push', requeue: (q, i) => q.push(i) },
    { name: 'pushAll', requeue: (q, i) => q.pushAll([i]) },
  ];
  for (const c of cases) {
    const q = new InstanceQueue();
    const [a, b, x] = [inst(1), inst(2), inst(3)];
    q.push(a);
    q.push(b);
    q.push(x);
    q.remove(b);
    c.requeue(q, b);
    t.strictSame(q.toArray(), [a, x, b], `${c.name}: queued again at the end`);
    q.remove(b);
    t.strictSame(q.toArray(), [a, x], `${c.name}: removed again`);
    t.equal(q.length, 2, `${c.name}: the length`);
    t.strictSame([q.shift(), q.shift(), q.shift()], [a, x, undefined], `${c.name}: never shifted out`);
  }
});

t.test('find: the first instance from the head that the predicate accepts; take: that one out, wherever it is', async (t) => {
  const is = (...ns: number[]) => (i: Instance) => ns.map((n) => `i${n}`).includes(i.instanceId);
  const cases: { name: string; setup: (q: InstanceQueue, all: Instance[]) => void; pred: (i: Instance) => boolean; found: string | undefined; rest: string[] }[] = [
    { name: 'the head itself', setup: () => undefined, pred: is(0, 2), found: 'i0', rest: ['i1', 'i2', 'i3'] },
    { name: 'past the head', setup: () => undefined, pred: is(2), found: 'i2', rest: ['i0', 'i1', 'i3'] },
    { name: 'the tail', setup: () => undefined, pred: is(3), found: 'i3', rest: ['i0', 'i1', 'i2'] },
    { name: 'none', setup: () => undefined, pred: () => false, found: undefined, rest: ['i0', 'i1', 'i2', 'i3'] },
    { name: 'a removed one is passed over', setup: (q, all) => q.remove(all[1]), pred: is(1, 2), found: 'i2', rest: ['i0', 'i3'] },
    {
      name: 'queued again after a removal: found at its new place, and taken there',
      setup: (q, all) => { q.remove(all[1]); q.push(all[1]); }, pred: is(1), found: 'i1', rest: ['i0', 'i2', 'i3'],
    },
  ];
  for (const c of cases) {
    const q = new InstanceQueue();
    const all = Array.from({ length: 4 }, (_, i) => inst(i));
    for (const i of all) q.push(i);
    c.setup(q, all);
    const found = q.find(c.pred);
    t.equal(found?.instanceId, c.found, `${c.name}: found`);
    if (found !== undefined) q.take(found);
    t.same(q.toArray().map((i) => i.instanceId), c.rest, `${c.name}: what is left, in order`);
    t.equal(q.length, c.rest.length, `${c.name}: the length`);
    const drained: string[] = [];
    for (let i = q.shift(); i !== undefined; i = q.shift()) drained.push(i.instanceId);
    t.same(drained, c.rest, `${c.name}: shifts give the same`);
  }
});

t.test('the queue holds no instance it no longer has (a soak trial: a crash loop kept up to 1,024 gone instances per app)', async (t) => {
  // Each case queues instances and takes all but `kept` out again; the ones out must be collectable.
  // Instances are made in `fill`, so only the queue (and the WeakRefs) could hold them.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const cases: { name: string; fill: (q: InstanceQueue) => WeakRef<Instance>[]; kept: number }[] = [
    { name: 'shifted one at a time (a crash loop)', kept: 0, fill: (q) => Array.from({ length: 100 }, (_, n) => {
      const i = inst(n);
      q.push(i);
      q.shift();
      return new WeakRef(i);
    }) },
    { name: 'shifted from a queue that never drains', kept: 1, fill: (q) => {
      const refs = Array.from({ length: 100 }, (_, n) => {
        const i = inst(n);
        q.push(i);
        return new WeakRef(i);
      });
      for (let n = 0; n < 99; n++) q.shift();
      return refs;
    } },
    { name: 'removed, then passed by the head', kept: 1, fill: (q) => {
      const all = Array.from({ length: 50 }, (_, n) => inst(n));
      q.pushAll(all);
      for (const i of all.slice(1, 49)) q.remove(i);
      q.shift();
      q.peek();
      return all.map((i) => new WeakRef(i));
    } },
  ];
  for (const c of cases) {
    const q = new InstanceQueue();
    const refs = c.fill(q);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    t.equal(alive, c.kept, `${c.name}: only what is still queued is alive`);
    t.equal(q.length, c.kept, `${c.name}: length`);
  }
});
