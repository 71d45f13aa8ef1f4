import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { appDefinitionJson } from '../../../src/marathon/render/app-definition-json';
import { podDefinitionJson } from '../../../src/marathon/render/pod-definition-json';
import type { AppSpec } from '../../../src/scheduler/model/app';
import type { RunSpec } from '../../../src/scheduler/model/run-spec';
import type { StoredState } from '../../../src/scheduler/ports/store';
import type { Scheduler } from '../../../src/scheduler/scheduler';
import { decode } from '../../../src/store/sqlite/codec';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { STORE_FORMAT_VERSION } from '../../../src/store/sqlite/store-format';
import { groupToReferenceRecord, runSpecFromRecord, runSpecToRecord } from '../../../src/store/run-spec-record';
import { makeApp, makeHealthCheck, makePod } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { repoPath } from '../../harness/repo-path';
import { populatedHarness } from './core-scenario';
import { copyState, exactDiff, openStore, storeCopy, tempDir, withRawDb, schedulerOnStore } from './store-fixture';
import { appDefaults, withWrittenDefaults } from '../../unit/marathon/fixtures/written-defaults';

/**
 * Run specs and groups are stored as Marathon's JSON rendered from the model and read back
 * through the converter (src/store/run-spec-record.ts, format 3); a store of format 2 (the core's
 * objects, each run spec with its wire copy) is migrated when opened. `fixtures/format-2.db` was
 * written by the pacer of commit 63ebf54 (fixtures/format-2-generator.txt) and
 * `format-2.expected.json` is what that pacer rendered for every run spec it then loaded.
 */

const FIXTURE = repoPath('test', 'store', 'sqlite', 'fixtures', 'format-2.db');

function fixtureCopy(tt: Test): string {
  return storeCopy(tt, FIXTURE);
}

const echo = (s: RunSpec): Record<string, unknown> => (s.kind === 'app' ? appDefinitionJson(s) : podDefinitionJson(s));

/** What the generator recorded of a loaded store (format-2-generator.txt). */
function summaryOf(loaded: StoredState): Record<string, unknown> {
  return {
    runSpecs: loaded.runSpecs.map(echo),
    versions: loaded.versions.map(echo),
    rootApps: [...(loaded.root?.groups.values() ?? [])].flatMap((g) => [...g.apps.values(), ...g.pods.values()]).map(echo),
    rootVersions: loaded.rootVersions.map((r) => r.version),
    deployments: loaded.deployments.map((d) => ({ id: d.plan.id, stepIndex: d.stepIndex, targetVersion: d.target.version })),
    instances: loaded.instances.map((i) => ({ instanceId: i.instanceId, condition: i.condition, tasks: i.tasks.map((task) => task.taskId) })),
  };
}

/**
 * The fixture's renderings with the defaults Marathon's writer gives and that pacer writes since
 * 2026-12-02 (test/unit/marathon/fixtures/written-defaults.ts): the stored definitions are the same.
 */
function withDefaults(expected: Record<string, unknown>): Record<string, unknown> {
  const each = (list: unknown): unknown => (list as Record<string, unknown>[]).map((d) => {
    const filled = withWrittenDefaults(d) as Record<string, unknown>;
    return 'containers' in d ? filled : appDefaults(filled);
  });
  return { ...expected, runSpecs: each(expected.runSpecs), versions: each(expected.versions), rootApps: each(expected.rootApps) };
}

function coreOn(store: SqliteStore): Scheduler {
  return schedulerOnStore(store, 'run-spec-record', () => START_MS + 3_600_000).scheduler;
}

t.test('a format 2 store keeps loading: migrated in place, every run spec rendered as that pacer rendered it', async (tt) => {
  const path = fixtureCopy(tt);
  const expected = withDefaults(JSON.parse(readFileSync(repoPath('test', 'store', 'sqlite', 'fixtures', 'format-2.expected.json'), 'utf8')) as Record<string, unknown>);
  const store = openStore(tt, path);
  const loaded = store.load();
  tt.equal(loaded.setAside, undefined, 'nothing set aside');
  tt.same(summaryOf(loaded), expected);
  tt.ok((expected.runSpecs as unknown[]).length >= 5 && (expected.deployments as unknown[]).length >= 1, 'apps, pods, versions and a running deployment');
  withRawDb(path, (db) => tt.equal(db.pragma('user_version', { simple: true }), STORE_FORMAT_VERSION, 'stamped with this version'));
  const scheduler = coreOn(store);
  tt.same(scheduler.setAsideRecords(), [], 'the core recovers from it without setting anything aside');
  tt.same(scheduler.runSpecs().map((s) => s.id).sort(), ['/batch/big', '/batch/job', '/prod/api', '/prod/db', '/prod/web']);
  store.close();
  const again = openStore(tt, path).load();
  tt.same(summaryOf(again), expected, 'and the migrated file loads the same');
});

t.test('a version 1 store is migrated through 2 and 3 to 4: agent-run protocols get Marathon\'s MESOS_* names', async (tt) => {
  const path = fixtureCopy(tt);
  // What a version 1 pacer wrote: the AGENT_* names; and a label whose text only looks like one.
  const trap = '"protocol":"AGENT_TCP"';
  withRawDb(path, (db) => {
    for (const table of ['root', 'run_specs', 'run_spec_versions', 'root_versions', 'deployments']) {
      db.prepare(`UPDATE ${table} SET body = replace(replace(body, '"protocol":"MESOS_HTTP"', '"protocol":"AGENT_HTTP"'), '"tier":"front"', ?)`)
        .run(`"tier":"front","note":${JSON.stringify(trap)}`);
    }
    tt.match(String((db.prepare("SELECT body FROM run_specs WHERE id = '/prod/api'").get() as { body: string }).body), /"AGENT_HTTP"/);
    db.pragma('user_version = 1');
  });
  const loaded = openStore(tt, path).load();
  tt.equal(loaded.setAside, undefined);
  const api = loaded.runSpecs.find((s) => s.id === '/prod/api') as AppSpec;
  tt.equal(api.healthChecks[0].protocol, 'MESOS_HTTP');
  const web = loaded.runSpecs.find((s) => s.id === '/prod/web') as AppSpec;
  tt.equal(web.labels.note, trap, 'a string that only contains the text is left alone');
});

t.test('run specs and groups are stored as Marathon\'s JSON, not as the core\'s objects', async (tt) => {
  const path = join(tempDir(tt), 'pacer.db');
  const store = openStore(tt, path);
  const app = makeApp({ id: '/g/web', hostPorts: [0], healthChecks: [makeHealthCheck()], labels: { a: 'b' } });
  const pod = makePod({ id: '/g/db' });
  const root = populatedHarness().scheduler.root();
  store.saveRunSpec(app);
  store.saveRunSpecVersion(pod);
  store.saveRoot(root);
  store.close();
  withRawDb(path, (db) => {
    const body = (sql: string): unknown => decode((db.prepare(sql).get() as { body: string }).body);
    tt.same(body('SELECT body FROM run_specs'), { kind: 'app', app: appDefinitionJson(app) });
    tt.same(body('SELECT body FROM run_spec_versions'), { kind: 'pod', pod: podDefinitionJson(pod) });
    // Since format 4 the root holds its apps and pods by reference (id and version), not whole.
    tt.same(body('SELECT body FROM root'), groupToReferenceRecord(root));
    tt.match(body('SELECT body FROM root'), { id: '/', apps: [], groups: [{ id: '/batch' }, { id: '/prod' }], version: String });
    const prod = (body('SELECT body FROM root') as { groups: { apps: unknown[] }[] }).groups[1];
    tt.same(prod.apps, [{ id: '/prod/web', version: root.groups.get('/prod')?.apps.get('/prod/web')?.version }]);
  });
});

t.test('what the core saves comes back equal (converter ∘ renderer is the identity on the model)', async (tt) => {
  const h = populatedHarness();
  const state = h.store.load();
  const path = join(tempDir(tt), 'pacer.db');
  const store = openStore(tt, path);
  copyState(state, store);
  const loaded = store.load();
  tt.equal(loaded.setAside, undefined);
  tt.equal(exactDiff(loaded.runSpecs, state.runSpecs), undefined, 'run specs');
  tt.equal(exactDiff(loaded.versions, state.versions), undefined, 'versions');
  tt.equal(exactDiff(loaded.root, state.root), undefined, 'the root, Maps in order');
  tt.equal(exactDiff(loaded.rootVersions, state.rootVersions), undefined, 'root versions');
  tt.equal(exactDiff(loaded.deployments, state.deployments), undefined, 'running deployments');
  tt.ok(state.runSpecs.length > 2 && state.deployments.length > 0, 'a scenario with run specs and a running deployment');
  const shared = loaded.rootVersions.at(-1)?.groups.get('/prod')?.apps.get('/prod/web');
  tt.ok(shared !== undefined, 'the newest root version holds /prod/web');
  tt.equal(loaded.root?.groups.get('/prod')?.apps.get('/prod/web'), shared, 'an app held by several roots is read once and shared');
});

t.test('a stored run spec the converter refuses is set aside with its errors', async (tt) => {
  const path = join(tempDir(tt), 'pacer.db');
  const store = openStore(tt, path);
  store.saveRunSpec(makeApp({ id: '/ok' }));
  store.saveRunSpec(makeApp({ id: '/bad' }));
  withRawDb(path, (db) => {
    const bad = runSpecToRecord(makeApp({ id: '/bad' })) as { kind: 'app'; app: Record<string, unknown> };
    db.prepare("UPDATE run_specs SET body = ? WHERE id = '/bad'").run(JSON.stringify({ kind: 'app', app: { ...bad.app, cpus: -1 } }));
  });
  const loaded = store.load();
  tt.same(loaded.runSpecs.map((s) => s.id), ['/ok']);
  tt.match(loaded.setAside, [{ kind: 'runSpec', key: '/bad', reason: /^app \/bad: \/cpus: / }]);
  tt.same(runSpecFromRecord({ kind: 'job' }), { ok: false, reason: 'is not a run spec record (kind is neither app nor pod)' });
});
