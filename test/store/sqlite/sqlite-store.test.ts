import { existsSync } from 'node:fs';
import t, { type Test } from 'tap';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { copyState, exactDiff, openStore, tempStorePath } from './store-fixture';
import { populatedHarness } from './core-scenario';
import { instance, storeConformance } from '../store-conformance';
import { writeDumpToSqlite } from '../store-dump';

/** Open, write, close, reopen: what `load()` returns from the file alone. */
function persisted(t: Test, write: (store: SqliteStore) => void): ReturnType<SqliteStore['load']> {
  const path = tempStorePath(t);
  const store = SqliteStore.open(path);
  write(store);
  store.close();
  return openStore(t, path).load();
}

storeConformance(t, {
  name: 'SQLite', copies: true,
  persisted: (t, write) => Promise.resolve(persisted(t, write)),
  storedDump: (t, dump) => {
    const path = tempStorePath(t);
    writeDumpToSqlite(dump, path);
    return Promise.resolve(openStore(t, path).load());
  },
});

t.test('a new store is empty, creates its file and loads nothing', async (t) => {
  const path = tempStorePath(t);
  const store = openStore(t, path);
  t.ok(existsSync(path));
  t.same(store.load(), { runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] });
  t.notOk('root' in store.load() || 'frameworkId' in store.load(), 'absent, not undefined');
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
