import { existsSync } from 'node:fs';
import t, { type Test } from 'tap';
import type { Deployment } from '../../../src/scheduler/deployments/deployment';
import type { Group } from '../../../src/scheduler/groups/group';
import { emptyRoot, putRunSpec } from '../../../src/scheduler/groups/root-group';
import type { Instance } from '../../../src/scheduler/model/instance';
import type { RunSpec } from '../../../src/scheduler/model/run-spec';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { makeApp, makePod, versionAt } from '../../builders/run-spec-builders';
import { copyState, exactDiff, openStore, tempStorePath } from './store-fixture';
import { populatedHarness } from './core-scenario';

// Builders of stored objects small enough to read in a failure message.

function instance(id: string, o: Partial<Instance> = {}): Instance {
  return {
    instanceId: id, runSpecId: '/app', kind: 'app', runSpecVersion: versionAt(0), configVersion: versionAt(0), incarnation: 1,
    goal: 'Running', condition: 'Scheduled', conditionSinceMs: 0, role: '*', tasks: [], ...o,
  };
}

function rootAt(version: string, ...specs: RunSpec[]): Group {
  let root = emptyRoot(version);
  for (const spec of specs) {
    const r = putRunSpec(root, spec, { version, newGroupEnforceRole: 'off' });
    if (!r.ok) throw new Error(r.message);
    root = r.root;
  }
  return root;
}

function deployment(id: string, stepIndex: number): Deployment {
  const target = rootAt(versionAt(1), makeApp({ id: '/g/a', version: versionAt(1) }));
  return {
    plan: { id, originalVersion: versionAt(0), targetVersion: versionAt(1), steps: [{ actions: [{ action: 'StartApplication', runSpecId: '/g/a', kind: 'app' }] }], affectedRunSpecIds: ['/g/a'] },
    original: emptyRoot(versionAt(0)), target, stepIndex, startedAtMs: 5,
  };
}

/** Open, write, close, reopen: what `load()` returns from the file alone. */
function persisted(t: Test, write: (store: SqliteStore) => void): ReturnType<SqliteStore['load']> {
  const path = tempStorePath(t);
  const store = SqliteStore.open(path);
  write(store);
  store.close();
  return openStore(t, path).load();
}

t.test('a new store is empty, creates its file and loads nothing', async (t) => {
  const path = tempStorePath(t);
  const store = openStore(t, path);
  t.ok(existsSync(path));
  t.same(store.load(), { runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] });
  t.notOk('root' in store.load() || 'frameworkId' in store.load(), 'absent, not undefined');
});

t.test('run specs: save, overwrite by id, delete; sorted by id', async (t) => {
  const s = persisted(t, (store) => {
    store.saveRunSpec(makeApp({ id: '/b' }));
    store.saveRunSpec(makePod({ id: '/a' }));
    store.saveRunSpec(makeApp({ id: '/c' }));
    store.saveRunSpec(makeApp({ id: '/b', instances: 7 }));
    store.deleteRunSpec('/c');
    store.deleteRunSpec('/never-stored');
  });
  t.same(s.runSpecs.map((r) => [r.id, r.kind, r.instances]), [['/a', 'pod', 1], ['/b', 'app', 7]]);
  t.equal(exactDiff(s.runSpecs[0], makePod({ id: '/a' })), undefined, 'the pod comes back whole');
});

t.test('run spec versions: keyed by (id, version), oldest first per run spec, deleting one keeps the others', async (t) => {
  const s = persisted(t, (store) => {
    for (const v of [2, 0, 1]) store.saveRunSpecVersion(makeApp({ id: '/b', version: versionAt(v) }));
    store.saveRunSpecVersion(makeApp({ id: '/a', version: versionAt(9) }));
    store.saveRunSpecVersion(makeApp({ id: '/b', version: versionAt(1), instances: 3 }));
    store.deleteRunSpecVersion('/b', versionAt(0));
    store.deleteRunSpec('/b');
  });
  t.same(s.versions.map((r) => [r.id, r.version, r.instances]), [
    ['/a', versionAt(9), 1], ['/b', versionAt(1), 3], ['/b', versionAt(2), 1],
  ], 'deleteRunSpec leaves versions alone');
});

t.test('root and root versions: the root is one row, root versions are keyed by version', async (t) => {
  const r1 = rootAt(versionAt(1), makeApp({ id: '/x/a', version: versionAt(1) }));
  const r2 = rootAt(versionAt(2), makeApp({ id: '/x/a', version: versionAt(2) }), makePod({ id: '/y/p', version: versionAt(2) }));
  const s = persisted(t, (store) => {
    store.saveRoot(r1);
    store.saveRoot(r2);
    for (const r of [r2, r1, emptyRoot(versionAt(0))]) store.saveRootVersion(r);
    store.deleteRootVersion(versionAt(0));
    store.deleteRootVersion(versionAt(7));
  });
  t.equal(exactDiff(s.root, r2), undefined, 'the last saved root, Maps and all');
  t.same(s.rootVersions.map((g) => g.version), [versionAt(1), versionAt(2)]);
  t.equal(exactDiff(s.rootVersions[0], r1), undefined);
});

t.test('deployments: keyed by plan id, a step advance overwrites, delete removes', async (t) => {
  const s = persisted(t, (store) => {
    store.saveDeployment(deployment('d2', 0));
    store.saveDeployment(deployment('d1', 0));
    store.saveDeployment(deployment('d2', 1));
    store.saveDeployment(deployment('d3', 0));
    store.deleteDeployment('d3');
  });
  t.same(s.deployments.map((d) => [d.plan.id, d.stepIndex]), [['d1', 0], ['d2', 1]]);
  t.equal(exactDiff(s.deployments[1], deployment('d2', 1)), undefined, 'plan, original and target come back whole');
});

t.test('instances: a batch at once, overwrite by id, delete; sorted by id', async (t) => {
  const s = persisted(t, (store) => {
    store.saveInstances([instance('i3'), instance('i1'), instance('i2')]);
    store.saveInstances([instance('i2', { condition: 'Running', incarnation: 2 })]);
    store.saveInstances([]);
    store.deleteInstance('i3');
    store.deleteInstance('nope');
  });
  t.same(s.instances.map((i) => [i.instanceId, i.condition, i.incarnation]), [['i1', 'Scheduled', 1], ['i2', 'Running', 2]]);
});

t.test('the store copies what it is given: later mutations by the core are not stored', async (t) => {
  const path = tempStorePath(t);
  const store = openStore(t, path);
  const live = instance('i1', { tasks: [{ taskId: 't', condition: 'Staging', hostPorts: [], resources: { cpusMilli: 1, memMilli: 1, diskMilli: 0, gpus: 0 }, launchedAtMs: 1 }] });
  store.saveInstances([live]);
  live.condition = 'Running';
  live.tasks[0].condition = 'Running';
  const loaded = store.load().instances[0];
  t.equal(loaded.condition, 'Scheduled');
  t.equal(loaded.tasks[0].condition, 'Staging');
  t.not(loaded, live);
});

t.test('framework id: one row, the last saved wins', async (t) => {
  const s = persisted(t, (store) => {
    store.saveFrameworkId('fw-1');
    store.saveFrameworkId('fw-2');
  });
  t.equal(s.frameworkId, 'fw-2');
});

t.test('the state of a real core run survives a reopen exactly, in load() order (FULL and NORMAL)', async (t) => {
  const h = populatedHarness();
  const expected = { ...h.store.load(), frameworkId: 'framework-1' };
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const path = tempStorePath(t);
    const store = SqliteStore.open(path, { synchronous });
    copyState(expected, store);
    store.close();
    const loaded = openStore(t, path, { synchronous }).load();
    t.equal(exactDiff(loaded, expected), undefined, `${synchronous}: load() after reopen deep-equals the MemoryStore's load()`);
  }
});

t.test('writes after a reopen land in the same file', async (t) => {
  const path = tempStorePath(t);
  const first = SqliteStore.open(path);
  first.saveInstances([instance('i1')]);
  first.close();
  const second = SqliteStore.open(path);
  second.saveInstances([instance('i2')]);
  second.close();
  t.same(openStore(t, path).load().instances.map((i) => i.instanceId), ['i1', 'i2']);
});

t.test('a closed store refuses further writes', async (t) => {
  const store = SqliteStore.open(tempStorePath(t));
  store.close();
  t.throws(() => store.saveFrameworkId('x'), /not open/);
});
