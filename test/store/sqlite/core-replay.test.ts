import t from 'tap';
import type { Store } from '../../../src/scheduler/ports/store';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import type { StoreWrite } from '../../harness/memory-store';
import { populatedHarness } from './core-scenario';
import { exactDiff, openStore, tempStorePath } from './store-fixture';

/** Apply one recorded write of the core to another store. */
function apply(write: StoreWrite, store: Store): void {
  switch (write.type) {
    case 'saveRoot': return store.saveRoot(write.root);
    case 'saveRunSpec': return store.saveRunSpec(write.spec);
    case 'deleteRunSpec': return store.deleteRunSpec(write.runSpecId);
    case 'saveRunSpecVersion': return store.saveRunSpecVersion(write.spec);
    case 'deleteRunSpecVersion': return store.deleteRunSpecVersion(write.runSpecId, write.version);
    case 'saveRootVersion': return store.saveRootVersion(write.root);
    case 'deleteRootVersion': return store.deleteRootVersion(write.version);
    case 'saveDeployment': return store.saveDeployment(write.deployment);
    case 'deleteDeployment': return store.deleteDeployment(write.deploymentId);
    case 'saveInstances': return store.saveInstances(write.instances);
    case 'deleteInstance': return store.deleteInstance(write.instanceId);
    case 'saveFrameworkId': return store.saveFrameworkId(write.frameworkId);
  }
}

t.test('replaying every write a real core made, in order, leaves the SQLite file holding what the MemoryStore holds', async (t) => {
  const h = populatedHarness();
  // More churn: a run spec deleted (its instances killed and expunged), a deployment that finishes.
  h.delete('/batch/small');
  for (const inst of h.instances('/batch/small')) for (const task of inst.tasks) h.status(task.taskId, 'TASK_KILLED');
  h.advance(60_000);
  const writes = h.effects.flatMap((e) => (e.kind === 'store' ? [e.write] : []));
  const kinds = new Set(writes.map((w) => w.type));
  for (const kind of ['saveRoot', 'saveRunSpec', 'deleteRunSpec', 'saveRunSpecVersion', 'saveRootVersion', 'saveDeployment', 'deleteDeployment', 'saveInstances', 'deleteInstance'] as const) {
    t.ok(kinds.has(kind), `the core made a ${kind} write`);
  }

  const path = tempStorePath(t);
  const store = SqliteStore.open(path);
  for (const write of writes) apply(write, store);
  store.close();
  const loaded = openStore(t, path).load();
  t.equal(exactDiff(loaded, h.store.load()), undefined, 'load() after reopen deep-equals the MemoryStore, order included');
  t.ok(loaded.instances.length > 0 && loaded.deployments.length > 0, 'non-trivial state');
});
