import t from 'tap';
import type { Deployment } from '../../src/scheduler/model/deployment';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { makeApp } from '../builders/run-spec-builders';
import { START_MS } from '../harness/core-harness';
import { schedulerOnStore, tempStorePath, withRawDb } from './sqlite/store-fixture';

/**
 * Store format 8: a running deployment's record refers to its original and target roots by root
 * version where the store holds those very roots (as Marathon's plan names its two root versions),
 * the version history keeps those root versions beyond its cap while the deployment runs, and a
 * restart resumes the deployment from them. A root the store does not hold as that object (the
 * root a restart recovered) is held whole, as in format 7.
 */

interface Row { readonly body: string }

const deploymentRecord = (path: string, id: string): { original: unknown; target: unknown; size: number } => withRawDb(path, (db) => {
  const { body } = db.prepare('SELECT body FROM deployments WHERE id = ?').get(id) as Row;
  const record = JSON.parse(body) as { original: unknown; target: unknown };
  return { original: record.original, target: record.target, size: body.length };
});
const rootVersionCount = (path: string): number => withRawDb(path, (db) => (db.prepare('SELECT count(*) AS n FROM root_versions').get() as { n: number }).n);
const big = 'x'.repeat(2_000);

t.test('a waiting deployment refers to its two roots by root version, keeps them beyond the cap, and resumes from them after a restart', async (t) => {
  const path = tempStorePath(t);
  let now = START_MS;
  let store = SqliteStore.open(path);
  let { scheduler } = schedulerOnStore(store, 'root-versions', () => now);
  for (let i = 0; i < 20; i++) scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: `/many/a${i}`, instances: 0, labels: { big } }) });
  now += 1_000;
  // No offer comes: the deployment of /long/a waits through 60 more root changes (the cap is 50).
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/long/a', instances: 1 }) });
  const [{ deployment: d }] = scheduler.deployments() as unknown as [{ deployment: Deployment }];
  for (let i = 1; i <= 60; i++) {
    now += 1_000;
    scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/keep/b', instances: 0, labels: { n: String(i) } }) });
  }
  const record = deploymentRecord(path, d.plan.id);
  t.strictSame([record.original, record.target], [{ rootVersion: d.original.version }, { rootVersion: d.target.version }], 'both roots by root version');
  t.ok(record.size < 1_000, `the record holds no app (${record.size} bytes; the roots hold 21 apps of 2 KB labels)`);
  t.equal(rootVersionCount(path), 52, 'the 50 newest root versions, and the two the deployment refers to');
  store.close();

  store = SqliteStore.open(path);
  t.teardown(() => store.close());
  const loaded = store.load();
  t.equal(loaded.setAside, undefined, 'every record loads');
  const resumed = loaded.deployments[0];
  t.equal(resumed?.original, loaded.rootVersions.find((r) => r.version === d.original.version), "its original is the loaded root version itself");
  t.equal(resumed?.target.groups.get('/long')?.apps.get('/long/a')?.instances, 1, 'its target holds the app it deploys');
  ({ scheduler } = schedulerOnStore(store, 'root-versions', () => now));
  t.same(scheduler.setAsideRecords(), [], 'nothing is set aside');
  t.same(scheduler.deployments().map((x) => x.deployment.plan.id), [d.plan.id], 'the deployment resumes');
  t.equal(rootVersionCount(path), 52, 'and its root versions stay while it runs');

  // The first change after the restart: its original is the recovered root, another object than
  // its root version, so it is held whole; its target is the root version this pacer wrote.
  now += 1_000;
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/other/x', instances: 1 }) });
  const other = scheduler.deployments().map((x) => x.deployment).find((x) => x.plan.id !== d.plan.id);
  if (other === undefined) return t.fail('no deployment of /other/x');
  const second = deploymentRecord(path, other.plan.id);
  t.match(second.original, { id: '/', version: other.original.version, groups: Array }, 'the recovered root is held whole');
  t.strictSame(second.target, { rootVersion: other.target.version }, 'the root this pacer recorded by version');
});

t.test('a deployment whose root version is missing is set aside with the reason; the rest starts', async (t) => {
  const path = tempStorePath(t);
  let now = START_MS;
  let store = SqliteStore.open(path);
  const { scheduler } = schedulerOnStore(store, 'root-versions', () => now);
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/keep/b', instances: 0 }) });
  now += 1_000;
  scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/long/a', instances: 1 }) });
  const [{ deployment: d }] = scheduler.deployments() as unknown as [{ deployment: Deployment }];
  t.strictSame(deploymentRecord(path, d.plan.id).original, { rootVersion: d.original.version });
  store.close();
  withRawDb(path, (db) => db.prepare('DELETE FROM root_versions WHERE version = ?').run(d.original.version));
  store = SqliteStore.open(path);
  t.teardown(() => store.close());
  const loaded = store.load();
  t.match(loaded.setAside, [{ kind: 'deployment', key: d.plan.id, reason: `original: refers to root version ${d.original.version}, which is not stored` }]);
  const restarted = schedulerOnStore(store, 'root-versions', () => now).scheduler;
  t.same(restarted.deployments(), [], 'no deployment runs');
  t.same(restarted.runSpecs().map((s) => s.id).sort(), ['/keep/b', '/long/a'], 'every run spec runs');
});
