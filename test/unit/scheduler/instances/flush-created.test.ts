import t from 'tap';
import { emptyRoot, EMPTY_ROOT_VERSION } from '../../../../src/scheduler/groups/group-tree';
import type { InstanceContext } from '../../../../src/scheduler/instances/instance-context';
import { InstanceEffects } from '../../../../src/scheduler/instances/instance-effects';
import { flushInstances } from '../../../../src/scheduler/instances/instance-tracker';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { newRunSpecState } from '../../../../src/scheduler/state/new-run-spec-state';
import { SchedulerState } from '../../../../src/scheduler/state/scheduler-state';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/*
 * `flushInstances` writes the instances an input created (the write set's created list, kept
 * without a Set entry each) and the instances it changed in one store call:
 * the created ones first, in creation order (a store lists instances in the order it first saw
 * them, so that order is recovery's order), each instance once, none that is gone.
 */

function instanceOf(instanceId: string): Instance {
  return { instanceId, runSpecId: '/web', kind: 'app', goal: 'Running', condition: 'Scheduled', tasks: [] } as unknown as Instance;
}

/** The two things `flushInstances` reads of the context: the state and the effects it appends to. */
function flushContext(): { ctx: InstanceContext; state: SchedulerState; effects: InstanceEffects } {
  const state = new SchedulerState(emptyRoot(EMPTY_ROOT_VERSION), '*');
  const effects = new InstanceEffects();
  return { ctx: { state, effects } as unknown as InstanceContext, state, effects };
}

function written(effects: InstanceEffects): string[][] {
  return effects.take().flatMap((e) => (e.kind === 'saveInstances' ? [e.instances.map((i) => i.instanceId)] : []));
}

t.test('created and changed instances: one write, created first in creation order, each once, none gone', async (t) => {
  const cases: { name: string; created: string[]; dirty: string[]; removed: string[]; want: string[][] }[] = [
    { name: 'nothing to write', created: [], dirty: [], removed: [], want: [] },
    { name: 'created only', created: ['c1', 'c2', 'c3'], dirty: [], removed: [], want: [['c1', 'c2', 'c3']] },
    { name: 'changed only', created: [], dirty: ['o2', 'o1'], removed: [], want: [['o2', 'o1']] },
    { name: 'both: the created ones first', created: ['c1', 'c2'], dirty: ['o1'], removed: [], want: [['c1', 'c2', 'o1']] },
    { name: 'created, then changed in the same input: written once, at its creation place', created: ['c1', 'c2', 'c3'], dirty: ['o1', 'c3', 'c1'], removed: [], want: [['c1', 'c2', 'c3', 'o1']] },
    { name: 'created and expunged in the same input: not written', created: ['c1', 'c2'], dirty: ['c2', 'o1'], removed: ['c2', 'o1'], want: [['c1']] },
    { name: 'everything gone: no write at all', created: ['c1'], dirty: ['o1'], removed: ['c1', 'o1'], want: [] },
  ];
  for (const c of cases) {
    const { ctx, state, effects } = flushContext();
    const rs = newRunSpecState(makeApp({ id: '/web' }), 10);
    state.addRunSpec(rs);
    const byId = new Map<string, Instance>();
    for (const id of [...c.created, ...c.dirty]) {
      if (byId.has(id)) continue;
      const inst = instanceOf(`web.instance-${id}`);
      byId.set(id, inst);
      rs.instances.set(inst.instanceId, inst);
    }
    state.dirty.addCreated(c.created.map((id) => byId.get(id) as Instance));
    for (const id of c.dirty) state.dirty.add(byId.get(id) as Instance);
    for (const id of c.removed) state.removeInstance(rs, byId.get(id) as Instance);
    flushInstances(ctx);
    t.same(written(effects), c.want.map((ids) => ids.map((id) => `web.instance-${id}`)), c.name);
    t.equal(state.dirty.size, 0, `${c.name}: nothing left to write`);
    flushInstances(ctx);
    t.same(written(effects), [], `${c.name}: a second flush writes nothing`);
  }
});

t.test('new instances are written once, in the order the instances were created (the order the core lists them)', async (t) => {
  const h = new Harness();
  const from = h.store.writes.length;
  h.put(makeApp({ id: '/web', instances: 4 }));
  const writes = h.store.writes.slice(from).flatMap((w) => (w.type === 'saveInstances' ? [w.instances.map((i) => i.instanceId)] : []));
  const created = h.instances('/web').map((i) => i.instanceId);
  t.equal(created.length, 4, 'four instances created');
  t.same(writes, [created], 'one write of the four, in creation order');
});
