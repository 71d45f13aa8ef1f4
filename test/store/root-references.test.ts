import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import t from 'tap';
import { allRunSpecs } from '../../src/scheduler/groups/tree-query';
import { HeapLoop } from '../../src/scheduler/kernel/heap-loop';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import { Scheduler } from '../../src/scheduler/scheduler';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { makeApp, makePod, versionAt } from '../builders/run-spec-builders';
import { Harness, START_MS } from '../harness/core-harness';
import { RecordingDriver } from '../harness/recording-driver';
import { repoPath } from '../harness/repo-path';
import { tempStorePath, withRawDb } from './sqlite/store-fixture';
import { bytesPerChange } from './store-bytes';
import { type StoreDump, writeDumpToSqlite } from './store-dump';

/**
 * Store format 4: the root and its versions refer to their apps and pods by id and version
 * (src/store/run-spec-record.ts), so what a change writes no longer grows with every app's
 * definition; every version a kept root refers to stays stored.
 */

t.test('what one change writes for the root does not hold the apps: 100 apps with 4 KB of labels, one more created', async (t) => {
  const r = bytesPerChange(100, 4096);
  // Whole, the root held 100 × 4 KB (478 KB, and as much again for its version); by reference ~60 bytes an app.
  t.ok((r.textBytes.root ?? 0) < 100 * 100, `the root record: ${r.textBytes.root} bytes`);
  t.ok((r.textBytes.rootVersion ?? 0) < 100 * 100, `the root version record: ${r.textBytes.rootVersion} bytes`);
  t.ok((r.textBytes.runSpecVersion ?? 0) > 4096, 'the new app is written whole once, as its version');
});

t.test('every app and pod version a kept root version (or the root) refers to is stored, through updates, scales, deletes and re-creates', async (t) => {
  const h = new Harness();
  const ids = ['/a/one', '/a/two', '/b/three'];
  for (let i = 0; i < 130; i++) {
    const id = ids[i % ids.length];
    switch (i % 5) {
      case 0: h.put(makeApp({ id, instances: 0, labels: { n: String(i) } })); break;
      case 1: h.scale(id, i % 2); break;
      case 2: h.put(makePod({ id: '/p/pod', instances: 0, labels: { n: String(i) } })); break;
      case 3: h.delete(id); break;
      default: h.put(makeApp({ id: `/c/app-${i}`, instances: 0 })); if (i % 3 === 0) h.delete(`/c/app-${i - 5}`);
    }
    h.advance(1_000);
    for (const root of [...h.store.rootVersions.values(), h.store.root]) {
      if (root === undefined) continue;
      for (const spec of allRunSpecs(root)) {
        if (!h.store.versions.has(`${spec.id} ${spec.version}`)) t.fail(`change ${i}: root ${root.version} refers to ${spec.id} ${spec.version}, which is not stored`);
      }
    }
  }
  t.equal(h.store.rootVersions.size, 50, 'the root history is full (its oldest versions were dropped)');
  t.ok(h.store.versions.size > 0);
});

t.test('a format 3 store missing a version its root holds: migrated with that app whole, and the version is stored again at the start', async (t) => {
  const three = JSON.parse(readFileSync(repoPath('test/fixtures/store/format-3.json'), 'utf8')) as StoreDump;
  const web = three.records.find((r) => r.kind === 'runSpecVersion' && r.key === '/prod/web');
  if (web === undefined) throw new Error('the fixture has no version of /prod/web');
  const path = tempStorePath(t);
  writeDumpToSqlite({ ...three, records: three.records.filter((r) => r !== web) }, path);
  let store = SqliteStore.open(path);
  t.equal(store.load().setAside, undefined, 'everything loads');
  withRawDb(path, (db) => {
    const root = (db.prepare('SELECT body FROM root').get() as { body: string }).body;
    t.match(root, /"id":"\/prod\/web","args"/, 'the root keeps /prod/web whole (its version record is missing)');
  });
  const rng = seedrandom('root-references');
  const loop = new HeapLoop<SchedulerInput>();
  const scheduler = new Scheduler({
    clock: { nowMs: () => START_MS + 60_000 },
    random: { next: () => rng() },
    timers: { schedule: (dueMs, input) => loop.schedule(dueMs, input), cancel: (id) => loop.cancel(id) },
    driver: new RecordingDriver(),
    store,
    prober: { probe: () => undefined },
  });
  t.same(scheduler.setAsideRecords(), []);
  const count = (): number => withRawDb(path, (db) => (db.prepare("SELECT count(*) AS n FROM run_spec_versions WHERE run_spec_id = '/prod/web' AND version = ?").get(web.version) as { n: number }).n);
  t.equal(count(), 1, 'the start stored the version the root holds');
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/other/x', instances: 0, version: versionAt(120) }) });
  store.close();
  // Without /prod/web's run spec record (deleted as an app is), the new root still finds it.
  withRawDb(path, (db) => db.prepare("DELETE FROM run_specs WHERE id = '/prod/web'").run());
  store = SqliteStore.open(path);
  t.teardown(() => store.close());
  const loaded = store.load();
  t.equal(loaded.setAside, undefined, 'the root written after the start refers to a stored version');
  t.ok(loaded.root?.groups.get('/other')?.apps.has('/other/x'));
  t.equal(loaded.root?.groups.get('/prod')?.apps.get('/prod/web')?.version, web.version);
});
