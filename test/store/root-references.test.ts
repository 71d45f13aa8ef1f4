import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { allRunSpecs } from '../../src/scheduler/groups/tree-query';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { makeApp, makePod, versionAt } from '../builders/run-spec-builders';
import { Harness, START_MS } from '../harness/core-harness';
import { repoPath } from '../harness/repo-path';
import { tempStorePath, withRawDb, schedulerOnStore } from './sqlite/store-fixture';
import { bytesPerChange } from './store-bytes';
import { dumpOf, recordText, type StoreDump, writeDumpToSqlite } from './store-dump';
import { makeOffer } from '../builders/cluster-builders';
import { STORE_FORMAT_VERSION } from '../../src/store/records/store-format-version';

/**
 * Store format 4: the root and its versions refer to their apps and pods by id and version
 * (src/store/run-spec-record.ts), so what a change writes no longer grows with every app's
 * definition; every version a kept root refers to stays stored. Format 6: a running deployment's
 * record refers to them the same way, and the versions its two roots hold stay while it runs.
 */

t.test('what one change writes for the root does not hold the apps: 100 apps with 4 KB of labels, one more created', async (t) => {
  const r = bytesPerChange(100, 4096);
  // Whole, the root held 100 × 4 KB (478 KB, and as much again for its version); by reference ~60 bytes an app.
  t.ok((r.textBytes.root ?? 0) < 100 * 100, `the root record: ${r.textBytes.root} bytes`);
  t.ok((r.textBytes.rootVersion ?? 0) < 100 * 100, `the root version record: ${r.textBytes.rootVersion} bytes`);
  t.ok((r.textBytes.runSpecVersion ?? 0) > 4096, 'the new app is written whole once, as its version');
  // Written twice (started, first step), each with both roots: whole that was 4 × 478 KB; by reference ~60 bytes an app and root.
  t.ok((r.textBytes.deployment ?? 0) < 4 * 100 * 100, `the deployment's records: ${r.textBytes.deployment} bytes`);
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
  const { scheduler } = schedulerOnStore(store, 'root-references', () => START_MS + 60_000);
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

/** A restart through the codec: what the harness's store holds, encoded as every backend stores it, into a SQLite file. */
function restartThroughSqlite(t: Test, h: Harness, drop: (r: StoreDump['records'][number]) => boolean = () => false): { store: SqliteStore; dump: StoreDump } {
  const dump = dumpOf(h.store.load(), STORE_FORMAT_VERSION);
  const path = tempStorePath(t);
  writeDumpToSqlite({ ...dump, records: dump.records.filter((r) => !drop(r)) }, path);
  const store = SqliteStore.open(path);
  t.teardown(() => store.close());
  return { store, dump };
}

/** A deployment that waits (no offer for its instance) while /keep/b changes 60 times and /keep/gone, deleted, falls out of every kept root. */
function longDeployment(t: Test): { h: Harness; deploymentId: string; heldB: string; gone: string } {
  const h = new Harness();
  h.put(makeApp({ id: '/keep/b', instances: 0, labels: { n: '0', big: 'x'.repeat(2000) } }));
  h.put(makeApp({ id: '/keep/gone', instances: 0 }));
  h.advance(1_000);
  const started = h.put(makeApp({ id: '/long/a', instances: 1 }));
  if (!started.ok || started.deploymentId === undefined) throw new Error('not deployed');
  const deploymentId = started.deploymentId;
  const heldB = h.scheduler.root().groups.get('/keep')?.apps.get('/keep/b')?.version ?? '';
  const gone = h.scheduler.root().groups.get('/keep')?.apps.get('/keep/gone')?.version ?? '';
  h.delete('/keep/gone');
  for (let i = 1; i <= 60; i++) {
    h.advance(1_000);
    h.put(makeApp({ id: '/keep/b', instances: 0, labels: { n: String(i), big: 'x'.repeat(2000) } }));
  }
  const running = h.scheduler.deployments().map((d) => d.deployment.plan.id);
  t.same(running, [deploymentId], 'the deployment of /long/a still runs after 62 root changes');
  // The 50 newest, and the deployment's original and target (store format 8: its record may refer to them by version).
  t.equal(h.store.rootVersions.size, 52, 'the root history is full, and keeps the two roots the deployment holds beyond its cap');
  return { h, deploymentId, heldB, gone };
}

t.test('a deployment running through more than 50 root changes keeps the versions its roots refer to, and resumes after a restart with nothing set aside', async (t) => {
  const { h, deploymentId, heldB, gone } = longDeployment(t);
  t.ok(h.store.versions.has(`/keep/b ${heldB}`), 'the version of /keep/b both roots hold stays beyond the cap of 50');
  t.ok(h.store.versions.has(`/keep/gone ${gone}`), 'the deleted /keep/gone keeps the version both roots hold');
  const { store, dump } = restartThroughSqlite(t, h);
  const record = dump.records.find((r) => r.kind === 'deployment');
  t.ok(record !== undefined && recordText(record).length < 2_000, `the deployment's record refers to its roots (${record === undefined ? 0 : recordText(record).length} bytes; /keep/b alone is 2 KB)`);
  const loaded = store.load();
  t.equal(loaded.setAside, undefined, 'every record loads');
  const h2 = new Harness({ stored: loaded, startMs: h.nowMs });
  t.same(h2.scheduler.setAsideRecords(), [], 'nothing is set aside');
  const resumed = h2.scheduler.deployments().map((d) => d.deployment);
  t.same(resumed.map((d) => d.plan.id), [deploymentId], 'the deployment resumes');
  t.equal(resumed[0]?.original.groups.get('/keep')?.apps.get('/keep/gone')?.version, gone, 'with its original root whole');
  // It ends: the versions only it kept go from the store.
  h2.run(h2.offer(makeOffer()));
  t.same(h2.scheduler.deployments(), [], 'the deployment ended');
  t.notOk(h2.store.versions.has(`/keep/gone ${gone}`), "the deleted app's versions went with the deployment");
  t.notOk(h2.store.versions.has(`/keep/b ${heldB}`), 'and the version beyond the cap');
  t.equal([...h2.store.versions.keys()].filter((k) => k.startsWith('/keep/b ')).length, 50, '/keep/b is back to 50 versions');
});

t.test("a deployment whose record refers to a version the store lacks is set aside with the reason; the rest starts", async (t) => {
  const { h, gone } = longDeployment(t);
  const { store } = restartThroughSqlite(t, h, (r) => r.kind === 'runSpecVersion' && r.key === '/keep/gone');
  const loaded = store.load();
  // The two root versions the deployment holds beyond the cap refer to that version too (format 8 keeps them), and the
  // deployment's record refers to them.
  const reason = `group /keep: app /keep/gone refers to version ${gone}, which no stored app version holds`;
  const [original] = loaded.setAside ?? [];
  t.match(loaded.setAside, [
    { kind: 'rootVersion', reason }, { kind: 'rootVersion', reason }, { kind: 'deployment', reason: `original: refers to root version ${original?.key}, which is not stored` },
  ]);
  const h2 = new Harness({ stored: loaded, startMs: h.nowMs });
  t.same(h2.scheduler.deployments(), [], 'no deployment runs');
  t.same(h2.scheduler.runSpecs().map((s) => s.id).sort(), ['/keep/b', '/long/a'], 'every run spec runs');
});
