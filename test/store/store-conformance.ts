import type { Test } from 'tap';
import type { Deployment } from '../../src/scheduler/model/deployment';
import type { Group } from '../../src/scheduler/groups/group';
import { emptyRoot, withRunSpec } from '../../src/scheduler/groups/root-group';
import { allRunSpecs } from '../../src/scheduler/groups/tree-query';
import { Instance, type InstanceFields } from '../../src/scheduler/model/instance';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { TaskFailure } from '../../src/scheduler/model/task-failure';
import type { Store, StoredRecordKind, StoredState } from '../../src/scheduler/ports/store';
import type { RecordKey } from '../../src/store/records/record-codec';
import { RECORD_LOAD_ORDER } from '../../src/store/records/record-load-order';
import { STORE_FORMAT_VERSION } from '../../src/store/records/store-format-version';
import type { StoreDump } from './store-dump';
import { makeApp, makePod, versionAt } from '../builders/run-spec-builders';
import { populatedHarness } from './sqlite/core-scenario';
import { copyState, exactDiff } from './sqlite/store-fixture';

/**
 * The Store port's contract as one table, run against every backend (SQLite, memory, ZooKeeper:
 * test/store/*-conformance.test.ts): keys, overwrites, deletes, load order, whole records (Maps
 * and all), copies, set-aside. `persisted` writes through the port into a fresh store and returns
 * what a store reopened on the same place loads (the memory store: what it holds).
 */
export interface StoreBackend {
  readonly name: string;
  /** Durable stores copy what they are given; the memory store keeps the core's own objects. */
  readonly copies: boolean;
  persisted(t: Test, write: (store: Store) => void): Promise<StoredState>;
  /**
   * Writes the dump's records exactly as stored, unchecked, into a fresh store (in the order
   * given) and returns what a store opened there loads. Backends that keep texts (not the memory store).
   */
  storedDump?(t: Test, dump: StoreDump): Promise<StoredState>;
}

export function instance(id: string, o: Partial<InstanceFields> = {}): Instance {
  return Instance.from({
    instanceId: id, runSpecId: '/app', kind: 'app', runSpecVersion: versionAt(0), configVersion: versionAt(0), incarnation: 1,
    goal: 'Running', condition: 'Scheduled', conditionSinceMs: 0, role: '*', tasks: [], ...o,
  });
}

export function rootAt(version: string, ...specs: RunSpec[]): Group {
  let root = emptyRoot(version);
  for (const spec of specs) {
    const r = withRunSpec(root, spec, { version, newGroupEnforceRole: 'off' });
    if (!r.ok) throw new Error(r.message);
    root = r.root;
  }
  return root;
}

export function deployment(id: string, stepIndex: number): Deployment {
  const target = rootAt(versionAt(1), makeApp({ id: '/g/a', version: versionAt(1) }));
  return {
    plan: { id, originalVersion: versionAt(0), targetVersion: versionAt(1), steps: [{ actions: [{ action: 'StartApplication', runSpecId: '/g/a', kind: 'app' }] }], affectedRunSpecIds: ['/g/a'] },
    original: emptyRoot(versionAt(0)), target, stepIndex, startedAtMs: 5,
  };
}

/** Runs every case of the table against `backend`. */
export function storeConformance(t: Test, backend: StoreBackend): void {
  const persisted = (tt: Test, write: (store: Store) => void): Promise<StoredState> => backend.persisted(tt, write);

  t.test(`${backend.name}: a new store loads nothing`, async (t) => {
    const s = await persisted(t, () => undefined);
    t.same([s.runSpecs, s.versions, s.rootVersions, s.deployments, s.instances], [[], [], [], [], []]);
    t.equal(s.root, undefined);
    t.equal(s.frameworkId, undefined);
  });

  t.test(`${backend.name}: run specs: save, overwrite by id, delete; sorted by id`, async (t) => {
    const s = await persisted(t, (store) => {
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

  t.test(`${backend.name}: run spec versions: keyed by (id, version), oldest first per run spec, deleting one keeps the others`, async (t) => {
    const s = await persisted(t, (store) => {
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

  t.test(`${backend.name}: root and root versions: one root, root versions keyed by version`, async (t) => {
    const r1 = rootAt(versionAt(1), makeApp({ id: '/x/a', version: versionAt(1) }));
    const r2 = rootAt(versionAt(2), makeApp({ id: '/x/a', version: versionAt(2) }), makePod({ id: '/y/p', version: versionAt(2) }));
    const s = await persisted(t, (store) => {
      store.saveRoot(r1);
      store.saveRoot(r2);
      for (const r of [r2, r1, emptyRoot(versionAt(0))]) store.saveRootVersion(r);
      store.deleteRootVersion(versionAt(0));
      store.deleteRootVersion(versionAt(7));
      // A root refers to its run specs' versions (the core stores them: version-history.ts).
      for (const r of [r1, r2]) for (const spec of allRunSpecs(r)) store.saveRunSpecVersion(spec);
    });
    t.equal(exactDiff(s.root, r2), undefined, 'the last saved root, Maps and all');
    t.same(s.rootVersions.map((g) => g.version), [versionAt(1), versionAt(2)]);
    t.equal(exactDiff(s.rootVersions[0], r1), undefined);
    t.equal(s.setAside, undefined);
  });

  if (backend.copies) {
    t.test(`${backend.name}: a root or root version referring to a run spec version that is not stored is set aside, naming it; the rest loads`, async (t) => {
      const r1 = rootAt(versionAt(1), makeApp({ id: '/x/a', version: versionAt(1) }));
      const r2 = rootAt(versionAt(2), makeApp({ id: '/x/a', version: versionAt(1) }), makePod({ id: '/y/p', version: versionAt(2) }));
      const s = await persisted(t, (store) => {
        store.saveRoot(r2);
        for (const r of [r1, r2]) store.saveRootVersion(r);
        store.saveRunSpecVersion(makeApp({ id: '/x/a', version: versionAt(1) }));
        store.saveRunSpecVersion(makeApp({ id: '/y/p', version: versionAt(2) })); // an app: not the pod the roots refer to
      });
      const reason = `group /y: pod /y/p refers to version ${versionAt(2)}, which no stored pod version holds`;
      t.same(s.setAside, [{ kind: 'root', key: '/', reason }, { kind: 'rootVersion', key: versionAt(2), reason }]);
      t.equal(s.root, undefined);
      t.same(s.rootVersions.map((g) => g.version), [versionAt(1)]);
      t.equal(exactDiff(s.rootVersions[0], r1), undefined, 'the root version whose references resolve');
    });
  }

  t.test(`${backend.name}: deployments: keyed by plan id, a step advance overwrites, delete removes`, async (t) => {
    const s = await persisted(t, (store) => {
      // The run spec version the target refers to (store format 6), as the core stores it first.
      store.saveRunSpecVersion(makeApp({ id: '/g/a', version: versionAt(1) }));
      store.saveDeployment(deployment('d2', 0));
      store.saveDeployment(deployment('d1', 0));
      store.saveDeployment(deployment('d2', 1));
      store.saveDeployment(deployment('d3', 0));
      store.deleteDeployment('d3');
    });
    t.same(s.deployments.map((d) => [d.plan.id, d.stepIndex]), [['d1', 0], ['d2', 1]]);
    t.equal(exactDiff(s.deployments[1], deployment('d2', 1)), undefined, 'plan, original and target come back whole');
  });

  t.test(`${backend.name}: instances: a batch at once, overwrite by id, delete; sorted by id`, async (t) => {
    const s = await persisted(t, (store) => {
      store.saveInstances([instance('i3'), instance('i1'), instance('i2')]);
      store.saveInstances([instance('i2', { condition: 'Running', incarnation: 2 })]);
      store.saveInstances([]);
      store.deleteInstance('i3');
      store.deleteInstance('nope');
    });
    t.same(s.instances.map((i) => [i.instanceId, i.condition, i.incarnation]), [['i1', 'Scheduled', 1], ['i2', 'Running', 2]]);
  });

  t.test(`${backend.name}: framework id: the last saved wins`, async (t) => {
    const s = await persisted(t, (store) => {
      store.saveFrameworkId('fw-1');
      store.saveFrameworkId('fw-2');
    });
    t.equal(s.frameworkId, 'fw-2');
  });

  t.test(`${backend.name}: task failures: keyed by run spec id, the last saved wins, delete removes; sorted by id`, async (t) => {
    const failure = (appId: string, taskId: string): TaskFailure => ({
      appId, taskId, state: 'TASK_FAILED', message: 'exited 1', host: 'h1', version: versionAt(0), timestamp: versionAt(1), slaveId: 'agent-1',
    });
    // A task without an agent: no `slaveId`.
    const lost: TaskFailure = { appId: '/b', taskId: 't4', state: 'TASK_LOST', message: '', host: '', version: versionAt(0), timestamp: versionAt(2) };
    const s = await persisted(t, (store) => {
      store.saveTaskFailure(failure('/b', 't1'));
      store.saveTaskFailure(failure('/a', 't2'));
      store.saveTaskFailure(failure('/c', 't3'));
      store.saveTaskFailure(lost);
      store.deleteTaskFailure('/c');
      store.deleteTaskFailure('/never-stored');
    });
    t.equal(exactDiff(s.taskFailures, [failure('/a', 't2'), lost]), undefined);
  });

  t.test(`${backend.name}: a record set aside is no longer loaded; a record saved again under its key afterwards is`, async (t) => {
    const s = await persisted(t, (store) => {
      store.saveInstances([instance('i1'), instance('i2')]);
      store.saveRunSpec(makeApp({ id: '/a', instances: 2 }));
      store.setAside({ kind: 'instance', key: 'i1', reason: 'test' });
      store.setAside({ kind: 'runSpec', key: '/a', reason: 'test' });
      store.saveRunSpec(makeApp({ id: '/a', instances: 5 }));
      store.setAside({ kind: 'deployment', key: 'never-stored', reason: 'test' });
    });
    t.same(s.instances.map((i) => i.instanceId), ['i2']);
    t.same(s.runSpecs.map((r) => [r.id, r.instances]), [['/a', 5]]);
  });

  if (backend.copies) {
    t.test(`${backend.name}: a deployment whose roots refer to a run spec version that is not stored is set aside, naming it; the rest loads`, async (t) => {
      const s = await persisted(t, (store) => {
        store.saveDeployment(deployment('d1', 0));
        store.saveDeployment({ ...deployment('d2', 0), target: emptyRoot(versionAt(1)) });
      });
      t.same(s.setAside, [{ kind: 'deployment', key: 'd1', reason: `target: group /g: app /g/a refers to version ${versionAt(1)}, which no stored app version holds` }]);
      t.same(s.deployments.map((d) => d.plan.id), ['d2']);
    });

    t.test(`${backend.name}: the store copies what it is given: later mutations by the core are not stored`, async (t) => {
      const live = instance('i1', { tasks: [{ taskId: 't', condition: 'Staging', hostPorts: [], resources: { cpusMilli: 1, memMilli: 1, diskMilli: 0, gpus: 0 }, launchedAtMs: 1 }] });
      const s = await persisted(t, (store) => {
        store.saveInstances([live]);
        live.condition = 'Running';
        live.tasks[0].condition = 'Running';
      });
      t.equal(s.instances[0].condition, 'Scheduled');
      t.equal(s.instances[0].tasks[0].condition, 'Staging');
    });
  }

  if (backend.storedDump !== undefined) {
    const storedDump = backend.storedDump.bind(backend);
    t.test(`${backend.name}: kinds load in the one shared order, RECORD_LOAD_ORDER: a bad record of each kind, written last kind first, is set aside in that order`, async (t) => {
      const keyOf = (kind: StoredRecordKind): RecordKey =>
        kind === 'root' || kind === 'frameworkId' ? { key: '/' } : kind === 'rootVersion' ? { key: versionAt(0) } : kind === 'runSpecVersion' ? { key: '/a', version: versionAt(0) } : { key: '/a' };
      const records = [...RECORD_LOAD_ORDER].reverse().map((kind) => ({ kind, ...keyOf(kind), record: kind === 'frameworkId' ? '' : {} }));
      const s = await storedDump(t, { format: STORE_FORMAT_VERSION, records });
      t.same(s.setAside?.map((r) => r.kind), RECORD_LOAD_ORDER);
    });
  }

  t.test(`${backend.name}: the state of a real core run comes back exactly, in load() order`, async (t) => {
    const expected = { ...populatedHarness().store.load(), frameworkId: 'framework-1' };
    const s = await persisted(t, (store) => copyState(expected, store));
    t.equal(exactDiff({ ...s, setAside: undefined }, { ...expected, setAside: undefined }), undefined, "load() deep-equals the MemoryStore's load()");
  });
}
