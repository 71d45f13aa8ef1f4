import t from 'tap';
import { emptyRoot } from '../../../src/scheduler/groups/root-group';
import type { SchedulerInput } from '../../../src/scheduler/model/inputs';
import type { Scheduler } from '../../../src/scheduler/scheduler';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { makeApp, makePod, versionAt } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { openStore, tempStorePath, withRawDb, schedulerOnStore } from './store-fixture';

/**
 * An operator who creates and deletes uniquely named apps for weeks (CI jobs, one app per
 * branch): the store must not keep every app id's versions for good (the soak trial of
 * 2026-11-30 found the store and the core's history growing with every app ever created).
 */

function coreOn(store: SqliteStore): Scheduler {
  let now = START_MS;
  return schedulerOnStore(store, 'version-churn', () => (now += 1000)).scheduler;
}

const rows = (path: string, table: string): number => withRawDb(path, (db) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);

t.test('creating and deleting distinct apps without end keeps the stored versions bounded', async (t) => {
  const path = tempStorePath(t);
  const store = openStore(t, path);
  const core = coreOn(store);
  const refused: unknown[] = [];
  const counts: number[] = [];
  const handle = (input: SchedulerInput): void => {
    const result = core.handle(input);
    if (result !== undefined && !result.ok) refused.push(result);
  };
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 5; i++) {
      const id = `/ci/r${round}/app${i}`;
      handle({ type: 'putRunSpec', spec: makeApp({ id, instances: 0 }) });
      handle({ type: 'scale', runSpecId: id, instances: 0, force: true });
    }
    for (let i = 0; i < 5; i++) handle({ type: 'deleteRunSpec', runSpecId: `/ci/r${round}/app${i}`, force: true });
    counts.push(core.runSpecs().length);
  }
  t.same(refused, [], 'every change was accepted');
  t.same(new Set(counts), new Set([0]), 'every app is gone after each round');
  store.close();
  // 40 rounds made 200 apps and 600 root versions; 50 root versions are kept (10 rounds' worth).
  t.equal(rows(path, 'root_versions'), 50);
  const versions = rows(path, 'run_spec_versions');
  t.ok(versions <= 10 * 5, `stored app versions are those of the apps the kept roots hold (${versions}, 200 apps created)`);
});

t.test('a store that kept deleted apps\' versions is compacted at the next start; pods keep theirs', async (t) => {
  const path = tempStorePath(t);
  const old = openStore(t, path);
  // What an older pacer left: the root without the app, and the versions of deleted run specs.
  const root = emptyRoot(versionAt(10));
  old.saveRoot(root);
  old.saveRootVersion(root);
  for (let i = 0; i < 30; i++) old.saveRunSpecVersion(makeApp({ id: `/gone/app${i}`, version: versionAt(i) }));
  old.saveRunSpecVersion(makePod({ id: '/gone/pod', version: versionAt(1) }));
  old.close();
  t.equal(rows(path, 'run_spec_versions'), 31);
  const store = openStore(t, path);
  const core = coreOn(store);
  t.same(core.versions('/gone/app0'), [], 'the deleted app has no history left');
  t.same(core.versions('/gone/pod'), [versionAt(1)], 'the pod keeps its history (spec rule 12)');
  store.close();
  t.equal(rows(path, 'run_spec_versions'), 1, 'only the pod\'s version is left in the file');
});
