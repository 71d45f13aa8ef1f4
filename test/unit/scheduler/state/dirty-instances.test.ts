import t from 'tap';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { DirtyInstances } from '../../../../src/scheduler/state/dirty-instances';

/**
 * The input's write set (`state/dirty-instances.ts`): the instances created, in a list; changed
 * instances in a Set; instances just placed out of the queue in a list. Whatever the mix, a flush
 * writes each instance once (the one-write-per-input rule), the created ones first, only those
 * still current, and leaves nothing behind.
 */

function instanceOf(id: string): Instance {
  return { instanceId: id, runSpecId: '/web', kind: 'app', goal: 'Running', condition: 'Scheduled', tasks: [] } as unknown as Instance;
}

const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(instanceOf);

type Step = { readonly add?: Instance } | { readonly placed?: Instance } | { readonly created?: Instance[] };

const cases: { name: string; steps: Step[]; removed?: Instance[]; taken: Instance[]; size: number }[] = [
  { name: 'nothing', steps: [], taken: [], size: 0 },
  { name: 'changed only, each once in the order first added', steps: [{ add: b }, { add: a }, { add: b }], taken: [b, a], size: 2 },
  { name: 'placed only, in the order placed', steps: [{ placed: c }, { placed: a }], taken: [c, a], size: 2 },
  {
    name: 'both: changed first, then the placed ones not among them',
    steps: [{ placed: a }, { add: b }, { add: a }, { placed: c }], taken: [b, a, c], size: 4,
  },
  { name: 'instances no longer current are left out (placed only)', steps: [{ placed: a }, { placed: b }, { placed: c }], removed: [b], taken: [a, c], size: 3 },
  { name: 'instances no longer current are left out (both)', steps: [{ add: d }, { placed: a }, { placed: b }], removed: [d, a], taken: [b], size: 3 },
  { name: 'created only, in creation order', steps: [{ created: [c, a] }, { created: [b] }], taken: [c, a, b], size: 3 },
  { name: 'created first, then the changed ones not created', steps: [{ add: d }, { created: [a, b] }, { add: b }], taken: [a, b, d], size: 4 },
  { name: 'created, changed and placed: each once, at its first part', steps: [{ created: [a, b] }, { add: c }, { add: a }, { placed: b }, { placed: d }, { placed: c }], taken: [a, b, c, d], size: 7 },
  { name: 'created and placed only: the placed ones not created follow', steps: [{ created: [a] }, { placed: a }, { placed: b }], taken: [a, b], size: 3 },
  { name: 'created ones no longer current are left out', steps: [{ created: [a, b, c] }, { add: b }, { add: d }], removed: [b, d], taken: [a, c], size: 5 },
];

for (const tc of cases) {
  t.test(tc.name, async (t) => {
    const dirty = new DirtyInstances();
    for (const step of tc.steps) {
      if ('add' in step && step.add !== undefined) dirty.add(step.add);
      if ('placed' in step && step.placed !== undefined) dirty.addPlaced(step.placed);
      if ('created' in step && step.created !== undefined) dirty.addCreated(step.created);
    }
    t.equal(dirty.size, tc.size, 'size before the flush');
    const removed = new Set(tc.removed ?? []);
    t.same(dirty.take((inst) => !removed.has(inst)).map((i) => i.instanceId), tc.taken.map((i) => i.instanceId), 'taken');
    t.equal(dirty.size, 0, 'empty after');
    t.same(dirty.take(() => true), [], 'a second flush writes nothing');
    dirty.add(d);
    dirty.addPlaced(a);
    t.same(dirty.take(() => true).map((i) => i.instanceId), ['d', 'a'], 'and it fills again from empty');
  });
}

t.test('a list handed over by one flush is not touched by the next', async (t) => {
  const dirty = new DirtyInstances();
  dirty.addPlaced(a);
  const first = dirty.take(() => true);
  dirty.addPlaced(b);
  dirty.take(() => true);
  t.same(first.map((i) => i.instanceId), ['a']);
});

t.test('a created list handed over by one flush is not touched by the next', async (t) => {
  const dirty = new DirtyInstances();
  dirty.addCreated([a, b]);
  const first = dirty.take(() => true);
  dirty.addCreated([c]);
  dirty.add(d);
  t.same(dirty.take(() => true).map((i) => i.instanceId), ['c', 'd']);
  t.same(first.map((i) => i.instanceId), ['a', 'b']);
});
