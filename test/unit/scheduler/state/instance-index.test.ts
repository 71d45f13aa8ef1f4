import t from 'tap';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { InstanceIndex } from '../../../../src/scheduler/state/instance-index';

/*
 * InstanceIndex replaces a run spec's `Map<string, Instance>` without a map entry per instance
 * added: these check it answers as that Map does (kept beside it as the model) for every mix of
 * adds, look-ups, deletes and iterations, including changes during an iteration and the
 * compaction after many deletes.
 */

function inst(n: number): Instance {
  return { instanceId: `web.instance-${n}` } as unknown as Instance;
}

type Op = { add: number } | { addAll: number[] } | { get: number } | { del: number } | { iterate: true } | { iterateDeleting: number[] } | { iterateAdding: number } | { iterateAddingAll: number[] } | { iterateDeletingThenAdding: [number, number] };

function apply(ops: readonly Op[]): { index: InstanceIndex; model: Map<string, Instance>; mismatches: string[] } {
  const index = new InstanceIndex();
  const model = new Map<string, Instance>();
  const made = new Map<number, Instance>();
  const of = (n: number): Instance => {
    let i = made.get(n);
    if (i === undefined) {
      i = inst(n);
      made.set(n, i);
    }
    return i;
  };
  const mismatches: string[] = [];
  const ids = (it: Iterable<Instance>): string[] => [...it].map((i) => i.instanceId);
  ops.forEach((op, k) => {
    if ('add' in op) {
      index.set(of(op.add).instanceId, of(op.add));
      model.set(of(op.add).instanceId, of(op.add));
    } else if ('addAll' in op) {
      index.addAll(op.addAll.map(of));
      for (const n of op.addAll) model.set(of(n).instanceId, of(n));
    } else if ('get' in op) {
      const id = of(op.get).instanceId;
      if (index.get(id) !== model.get(id) || index.has(id) !== model.has(id)) mismatches.push(`op ${k}: get ${id}`);
    } else if ('del' in op) {
      const id = of(op.del).instanceId;
      if (index.delete(id) !== model.delete(id)) mismatches.push(`op ${k}: delete ${id}`);
    } else if ('iterate' in op) {
      if (ids(index.values()).join() !== ids(model.values()).join()) mismatches.push(`op ${k}: iteration`);
    } else if ('iterateDeleting' in op) {
      // Delete the given instances when the iteration reaches the first instance (as a delete or a stop does).
      const seen = (source: InstanceIndex | Map<string, Instance>): string[] => {
        const out: string[] = [];
        for (const i of source.values()) {
          if (out.length === 0) for (const d of op.iterateDeleting) source.delete(of(d).instanceId);
          out.push(i.instanceId);
        }
        return out;
      };
      if (seen(index).join() !== seen(model).join()) mismatches.push(`op ${k}: iteration deleting`);
    } else if ('iterateAddingAll' in op) {
      // A batch added when the iteration reaches the first instance (the index by addAll, the model one by one).
      const seen = (source: InstanceIndex | Map<string, Instance>): string[] => {
        const out: string[] = [];
        for (const i of source.values()) {
          if (out.length === 0) {
            if (source instanceof InstanceIndex) source.addAll(op.iterateAddingAll.map(of));
            else for (const n of op.iterateAddingAll) source.set(of(n).instanceId, of(n));
          }
          out.push(i.instanceId);
        }
        return out;
      };
      if (seen(index).join() !== seen(model).join()) mismatches.push(`op ${k}: iteration adding a batch`);
    } else if ('iterateDeletingThenAdding' in op) {
      // When the iteration reaches the deleted instance: delete it, then add another.
      const [gone, added] = op.iterateDeletingThenAdding;
      const seen = (source: InstanceIndex | Map<string, Instance>): string[] => {
        const out: string[] = [];
        for (const i of source.values()) {
          out.push(i.instanceId);
          if (i === of(gone)) {
            source.delete(of(gone).instanceId);
            source.set(of(added).instanceId, of(added));
          }
        }
        return out;
      };
      if (seen(index).join() !== seen(model).join()) mismatches.push(`op ${k}: iteration deleting then adding`);
    } else {
      const seen = (source: InstanceIndex | Map<string, Instance>): string[] => {
        const out: string[] = [];
        for (const i of source.values()) {
          if (out.length === 0) source.set(of(op.iterateAdding).instanceId, of(op.iterateAdding));
          out.push(i.instanceId);
        }
        return out;
      };
      if (seen(index).join() !== seen(model).join()) mismatches.push(`op ${k}: iteration adding`);
    }
    if (index.size !== model.size) mismatches.push(`op ${k}: size ${index.size} vs ${model.size}`);
  });
  if (ids(index.values()).join() !== ids(model.values()).join()) mismatches.push('final iteration');
  return { index, model, mismatches };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

t.test('answers as a Map: adds, look-ups (indexing as far as needed), deletes, iterations', async (t) => {
  const cases: { name: string; ops: Op[] }[] = [
    { name: 'empty', ops: [{ get: 1 }, { del: 1 }, { iterate: true }] },
    { name: 'adds then iteration, no look-up', ops: [...range(0, 10).map((n) => ({ add: n })), { iterate: true }] },
    { name: 'look-up of the oldest, then of a later one, then of one not held', ops: [...range(0, 10).map((n) => ({ add: n })), { get: 0 }, { get: 7 }, { get: 99 }, { get: 3 }, { iterate: true }] },
    { name: 'deletes in the middle, at both ends, twice, of one not held', ops: [...range(0, 10).map((n) => ({ add: n })), { del: 5 }, { del: 0 }, { del: 9 }, { del: 5 }, { del: 42 }, { get: 5 }, { get: 6 }, { iterate: true }] },
    { name: 'adds after look-ups and deletes', ops: [...range(0, 5).map((n) => ({ add: n })), { get: 2 }, { del: 1 }, ...range(5, 9).map((n) => ({ add: n })), { get: 8 }, { get: 1 }, { iterate: true }] },
    { name: 'deletes during an iteration: skipped when not yet reached', ops: [...range(0, 8).map((n) => ({ add: n })), { iterateDeleting: [3, 0, 7] }, { iterate: true }] },
    { name: 'an add during an iteration is visited', ops: [...range(0, 4).map((n) => ({ add: n })), { get: 1 }, { iterateAdding: 10 }, { get: 10 }] },
    {
      name: 'compaction after many deletes keeps order and look-ups',
      ops: [...range(0, 5000).map((n) => ({ add: n })), { get: 4000 }, ...range(0, 3000).map((n) => ({ del: n * 1 })), { get: 3999 }, { get: 4001 }, { get: 4999 }, { get: 2999 }, ...range(5000, 5100).map((n) => ({ add: n })), { get: 5050 }, { iterate: true }],
    },
    { name: 'newest first, as a stop kills: taken off the end, across holes', ops: [...range(0, 10).map((n) => ({ add: n })), { get: 3 }, { del: 6 }, { del: 2 }, { del: 9 }, { del: 8 }, { del: 7 }, { get: 5 }, { add: 20 }, { get: 20 }, { get: 1 }, { iterate: true }, ...range(0, 10).reverse().map((n) => ({ del: n })), { del: 20 }, { iterate: true }, { add: 30 }, { get: 30 }] },
    { name: 'batches added (none, one, many) between look-ups and deletes', ops: [{ addAll: [] }, { addAll: [0] }, { get: 0 }, { addAll: range(1, 6) }, { get: 4 }, { del: 5 }, { addAll: range(6, 9) }, { get: 8 }, { get: 99 }, { del: 8 }, { addAll: [9] }, { iterate: true }] },
    { name: 'a batch added during an iteration is visited', ops: [...range(0, 3).map((n) => ({ add: n })), { iterateAddingAll: range(10, 13) }, { get: 12 }, { addAll: range(13, 15) }, { iterate: true }] },
    {
      name: 'batches and single adds, compaction after many deletes',
      ops: [{ addAll: range(0, 2500) }, ...range(2500, 2600).map((n) => ({ add: n })), { addAll: range(2600, 5000) }, { get: 4000 }, ...range(0, 3000).map((n) => ({ del: n })), { get: 4999 }, { addAll: range(5000, 5100) }, { get: 5050 }, { iterate: true }],
    },
    { name: 'the newest deleted during an iteration, then one added: the added one is visited', ops: [...range(0, 4).map((n) => ({ add: n })), { iterateDeletingThenAdding: [3, 11] }, { get: 11 }, { get: 3 }] },
    {
      name: 'no compaction under an iteration (deleting most of the instances from inside it)',
      ops: [...range(0, 3000).map((n) => ({ add: n })), { iterateDeleting: range(0, 2500) }, { get: 2600 }, { del: 2700 }, { iterate: true }],
    },
  ];
  for (const c of cases) t.same(apply(c.ops).mismatches, [], c.name);
});

t.test('adding an instance under another id is a core failure', async (t) => {
  const index = new InstanceIndex();
  t.throws(() => index.set('web.instance-2', inst(1)), /added under/);
});

t.test('an iteration counts from its first step until it runs out or is left, whatever way it is left', async (t) => {
  // While an iteration is in progress a delete of the newest instance leaves a hole (the list
  // keeps its length); otherwise it is taken off the end. `slots` (the list's length) tells which.
  const held = (n: number): InstanceIndex => {
    const index = new InstanceIndex();
    index.addAll(range(0, n).map(inst));
    return index;
  };
  const deletingNewest = (index: InstanceIndex): 'popped' | 'hole' => {
    const before = index.slots;
    const newest = [...index.values()].at(-1) as Instance;
    index.delete(newest.instanceId);
    return index.slots < before ? 'popped' : 'hole';
  };
  const cases: { name: string; leave: (index: InstanceIndex) => void; after: 'popped' | 'hole' }[] = [
    { name: 'never started', leave: (index) => void index.values(), after: 'popped' },
    { name: 'run out', leave: (index) => void [...index.values()], after: 'popped' },
    {
      name: 'left by a break',
      leave: (index) => {
        for (const i of index.values()) if (i !== undefined) break;
      },
      after: 'popped',
    },
    {
      name: 'left by a throw',
      leave: (index) => {
        try {
          for (const i of index.values()) throw new Error(i.instanceId);
        } catch {
          // left
        }
      },
      after: 'popped',
    },
    {
      name: 'returned by hand after a step, then asked again',
      leave: (index) => {
        const it = index.values();
        it.next();
        it.return?.();
        it.return?.();
        it.next();
      },
      after: 'popped',
    },
    {
      name: 'run out, then asked again (counted off once)',
      leave: (index) => {
        const it = index.values();
        for (let r = it.next(); r.done !== true; r = it.next()) void r.value;
        it.next();
        it.return?.();
      },
      after: 'popped',
    },
    {
      name: 'one step taken and left hanging (still in progress)',
      leave: (index) => void index.values().next(),
      after: 'hole',
    },
  ];
  for (const c of cases) {
    const index = held(5);
    c.leave(index);
    t.equal(deletingNewest(index), c.after, c.name);
    t.equal(index.size, 4, `${c.name}: the newest is gone`);
  }
  // Two in progress at once, one left: the other still counts.
  const index = held(5);
  const outer = index.values();
  outer.next();
  for (const i of index.values()) if (i !== undefined) break;
  t.equal(deletingNewest(index), 'hole', 'one of two iterations left: the other still in progress');
  outer.return?.();
  index.set(inst(9).instanceId, inst(9));
  t.equal(deletingNewest(index), 'popped', 'both left (a newest added after the hole is taken off the end)');
});

t.test('every way the code reads values() sees each instance once, in order', async (t) => {
  const index = new InstanceIndex();
  const all = range(0, 6).map(inst);
  index.addAll(all);
  index.delete(all[2]?.instanceId ?? '');
  const expected = [0, 1, 3, 4, 5].map((n) => `web.instance-${n}`);
  const ids = (list: Iterable<Instance>): string[] => [...list].map((i) => i.instanceId);
  t.same(ids([...index.values()]), expected, 'spread');
  t.same(ids(Array.from(index.values())), expected, 'Array.from');
  t.same(ids(Array.from(index.values(), (i) => i)), expected, 'Array.from with a map function');
  const [a, b] = index.values();
  t.same([a?.instanceId, b?.instanceId], expected.slice(0, 2), 'destructuring');
  const outer: string[] = [];
  for (const i of index.values()) for (const j of index.values()) if (j === i) outer.push(i.instanceId);
  t.same(outer, expected, 'nested iterations');
  const it = index.values();
  const first = it.next();
  t.same([first.done, first.value?.instanceId], [false, expected[0]], 'a step by hand');
});
