import { readdirSync, readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { decodeRecord } from '../../src/store/records/record-codec';
import { migrateRecordText, RECORD_MIGRATIONS } from '../../src/store/records/record-migrations';
import { STORE_FORMAT_VERSION } from '../../src/store/records/store-format-version';
import { RunSpecRecordReader } from '../../src/store/run-spec-record';
import type { JsonValue } from '../../src/store/sqlite/codec';
import type { StoredRecordKind } from '../../src/scheduler/ports/store';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { Harness } from '../harness/core-harness';
import { repoPath } from '../harness/repo-path';
import { tempStorePath, withRawDb } from './sqlite/store-fixture';
import { dumpOf, recordText, type StoreDump, writeDumpToSqlite } from './store-dump';

/**
 * The checked-in stores (test/fixtures/store/format-N.json, written once per format version by
 * make-format-fixture.ts) must keep loading: written into a fresh SQLite file exactly as stored,
 * every record loads (none set aside), the core starts on them without setting anything aside,
 * and a store of the current format gives back every record byte for byte. A change of a stored
 * record type without a new format version and a migration fails here.
 * (The ZooKeeper store loads the same fixture: test/store/zk/zk-store.test.ts.)
 */
const dir = repoPath('test/fixtures/store');
const fixtures = readdirSync(dir).filter((f) => /^format-\d+\.json$/.test(f)).sort();

// In a test of its own, so that the file can run in a batch (test/runner/batch.ts: only t.test at the top level).
t.test('a fixture of the current format is checked in', async (t) => {
  t.ok(fixtures.includes(`format-${STORE_FORMAT_VERSION}.json`), `a fixture of the current format (${STORE_FORMAT_VERSION}) is checked in`);
});

for (const file of fixtures) {
  t.test(`${file} loads with every record intact`, async (t) => {
    const dump = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as StoreDump;
    const path = tempStorePath(t);
    writeDumpToSqlite(dump, path);
    const store = SqliteStore.open(path);
    t.teardown(() => store.close());
    const loaded = store.load();
    t.equal(loaded.setAside, undefined, 'no record set aside');
    const count = loaded.runSpecs.length + loaded.versions.length + loaded.rootVersions.length + loaded.deployments.length +
      loaded.instances.length + (loaded.root === undefined ? 0 : 1) + (loaded.frameworkId === undefined ? 0 : 1) + (loaded.taskFailures ?? []).length;
    t.equal(count, dump.records.length, `all ${dump.records.length} records loaded`);
    if (dump.format === STORE_FORMAT_VERSION) t.same(dumpOf(loaded, dump.format), dump, 'each record stored again is the fixture, exactly');
    const h = new Harness({ stored: loaded });
    t.same(h.scheduler.setAsideRecords(), [], 'the core recovers every record');
    t.same(h.scheduler.runSpecs().map((s) => s.id).sort(), loaded.runSpecs.map((s) => s.id).sort(), 'and runs every run spec');
    for (const f of loaded.taskFailures ?? []) t.same(h.scheduler.lastTaskFailure(f.appId), f, `with the last task failure of ${f.appId}`);
  });
}

t.test('format 3 → 4: with the run spec versions read first, every root of format-3.json refers to its apps and pods as in format-4.json; the rest is unchanged', async (t) => {
  // format-4.json is format-3.json migrated (the same core run): each fixture is the one before it, migrated.
  const [three, four] = [readFixture(3), readFixture(4)];
  checkStepVersionsFirst(t, three, four, 'roots', () => undefined);
  t.ok(four.records.filter((r) => r.kind === 'root' || r.kind === 'rootVersion').every((r) => !recordText(r).includes('"cmd"')), 'no root holds an app whole');
  // Without its version record, an app stays whole: nothing is lost.
  const root = three.records.find((r) => r.kind === 'root');
  t.equal(migrateStep('root', root === undefined ? '' : recordText(root), 3), root === undefined ? '' : recordText(root), 'a root whose versions were not read keeps its apps whole');
});

t.test('format 2 → 3: every record of format-2.json migrates, one record at a time, to its record in format-3.json', async (t) => {
  // Both fixtures were made by make-format-fixture.ts from the same core run, so the migrated
  // format 2 store must be the format 3 store exactly (run specs and groups as Marathon's JSON).
  const [two, three] = [readFixture(2), readFixture(3)];
  // (format-3.json also holds an instance with a resident reservation, which format 2 could not.)
  // Migrated this way, without the run spec versions read first, a root keeps its apps whole (format 3's record).
  const threeByName = new Map(three.records.map((r) => [name(r), r]));
  t.ok(two.records.length >= 20, `${two.records.length} records`);
  two.records.forEach((r) => {
    const migrated = migrateStep(r.kind, recordText(r), 2);
    const want = threeByName.get(name(r));
    t.equal(migrated, want === undefined ? '(missing from format-3.json)' : recordText(want), name(r));
    t.equal(migrateStep(r.kind, migrated, 2), migrated, 'and migrating it again changes nothing (ZooKeeper reruns an interrupted migration)');
    t.equal(migrateRecordText(r.kind, recordText(r), 2), migrateRecordText(r.kind, migrated, 3), 'migrateRecordText from 2 is this step, then those after it');
  });
});

/** The checked-in store of format `format` (test/fixtures/store/format-N.json). */
function readFixture(format: number): StoreDump {
  return JSON.parse(readFileSync(`${dir}/format-${format}.json`, 'utf8')) as StoreDump;
}

/**
 * The migration step from `from`'s format, record by record with the run spec versions first (as
 * a backend migrates, so that references can be made): each record of `from` becomes its record of
 * `to` (fixture N + 1 is fixture N migrated), migrating it again changes nothing (ZooKeeper reruns an
 * interrupted migration), and each version is read into the reader the `referrers` resolve from;
 * `each` adds a step's own checks of every record.
 */
function checkStepVersionsFirst(
  t: Test, from: StoreDump, to: StoreDump, referrers: string,
  each: (r: StoreDump['records'][number], migrated: string, reader: RunSpecRecordReader) => void,
): void {
  t.same(to.records.map(name), from.records.map(name), 'the same records');
  const reader = new RunSpecRecordReader();
  const versionsFirst = [...from.records].sort((a, b) => Number(b.kind === 'runSpecVersion') - Number(a.kind === 'runSpecVersion'));
  for (const r of versionsFirst) {
    const migrated = migrateStep(r.kind, recordText(r), from.format, reader);
    const want = to.records.find((w) => name(w) === name(r));
    t.equal(migrated, want === undefined ? '(missing)' : recordText(want), name(r));
    t.equal(migrateStep(r.kind, migrated, from.format, reader), migrated, 'and migrating it again changes nothing (ZooKeeper reruns an interrupted migration)');
    if (r.kind === 'runSpecVersion') t.ok(decodeRecord(r.kind, migrated, r, reader).ok, `the version is read (the ${referrers} refer to it)`);
    each(r, migrated, reader);
  }
}

function name(r: StoreDump['records'][number]): string {
  return `${r.kind} ${r.key}${r.version === undefined ? '' : ` ${r.version}`}`;
}

/**
 * The text of a record after the one migration from format `from` to `from + 1` (migrateRecordText
 * runs every migration up to the current format; each fixture is the one before it, migrated once).
 */
function migrateStep(kind: StoredRecordKind, text: string, from: number, reader = new RunSpecRecordReader()): string {
  const step = RECORD_MIGRATIONS.find((m) => m.from === from);
  if (step === undefined) throw new Error(`no migration from format ${from}`);
  return kind === 'frameworkId' ? text : JSON.stringify(step.migrate(kind, JSON.parse(text) as JsonValue, reader));
}

t.test('format 4 → 5: every record of format-4.json stays as it is; format-5.json adds a task with container addresses', async (t) => {
  const [four, five] = [readFixture(4), readFixture(5)];
  const reader = new RunSpecRecordReader();
  for (const r of four.records) t.equal(migrateStep(r.kind, recordText(r), 4, reader), recordText(r), `${r.kind} ${r.key}`);
  const added = five.records.filter((r) => !four.records.some((f) => f.kind === r.kind && f.key === r.key && f.version === r.version));
  t.same(added.map((r) => r.key), ['prod_web.instance-481aba00-39a2-49df-87cc-c050c36b5240-addressed'], 'one instance more');
  t.match(recordText(added[0]), /"ipAddresses":\[\{"ipAddress":"10\.1\.2\.3","protocol":"IPv4"\},\{"ipAddress":"fd00::7","protocol":"IPv6"\}\]/);
});

t.test('format 5 → 6: with the run spec versions read first, both roots of every deployment of format-5.json refer to their apps and pods as in format-6.json; the rest is unchanged', async (t) => {
  // format-6.json is format-5.json migrated (the same core run).
  const [five, six] = [readFixture(5), readFixture(6)];
  checkStepVersionsFirst(t, five, six, 'deployments', (r, migrated, reader) => {
    t.equal(migrateRecordText(r.kind, recordText(r), 5, reader), migrateRecordText(r.kind, migrated, 6, reader), 'migrateRecordText from 5 is this step, then those after it');
    if (r.kind !== 'deployment') t.equal(migrated, recordText(r), 'only deployments change');
  });
  const deployments = six.records.filter((r) => r.kind === 'deployment');
  t.equal(deployments.length, 2, 'two running deployments');
  t.ok(deployments.every((r) => !recordText(r).includes('"cmd"') && !recordText(r).includes('"args"')), 'no deployment holds an app whole');
  // Without the version records read first, a deployment's apps stay whole: nothing is lost.
  const d = five.records.find((r) => r.kind === 'deployment');
  const text = d === undefined ? '' : recordText(d);
  t.equal(migrateStep('deployment', text, 5), text, 'a deployment whose versions were not read keeps its apps whole');
});

t.test('format 6 → 7: every record of format-6.json stays as it is; format-7.json adds the last task failure of an app', async (t) => {
  const [six, seven] = [readFixture(6), readFixture(7)];
  const reader = new RunSpecRecordReader();
  for (const r of six.records) t.equal(migrateStep(r.kind, recordText(r), 6, reader), recordText(r), name(r));
  const added = seven.records.filter((r) => !six.records.some((f) => name(f) === name(r)));
  t.same(added.map(name), ['taskFailure /prod/web'], 'one task failure more');
  t.same(seven.records.slice(0, six.records.length), six.records, 'the rest as format 6 holds it');
  // An older SQLite file gets the new kind's table from the migration (it lacks it before).
  const path = tempStorePath(t);
  writeDumpToSqlite(six, path);
  withRawDb(path, (db) => db.exec('DROP TABLE task_failures'));
  const store = SqliteStore.open(path);
  t.teardown(() => store.close());
  t.equal(store.load().setAside, undefined, 'format 6 migrates, nothing set aside');
  const failure = { appId: '/prod/web', taskId: 't1', state: 'TASK_FAILED' as const, message: 'm', host: 'h', version: 'v', timestamp: 'ts' };
  store.saveTaskFailure(failure);
  t.same(store.load().taskFailures, [failure], 'and keeps task failures');
});

t.test('format 7 → 8: every record of format-7.json stays as it is; in format-8.json a deployment refers to each root the fixture holds as that very root version', async (t) => {
  const [seven, eight] = [readFixture(7), readFixture(8)];
  const reader = new RunSpecRecordReader();
  for (const r of seven.records) t.equal(migrateStep(r.kind, recordText(r), 7, reader), recordText(r), name(r));
  t.same(eight.records.map(name), seven.records.map(name), 'the same records');
  t.same(eight.records.filter((r) => r.kind !== 'deployment'), seven.records.filter((r) => r.kind !== 'deployment'), 'all but the deployments as format 7 holds them');
  const roots = (dump: StoreDump): unknown[] => dump.records.filter((r) => r.kind === 'deployment').flatMap((r) => {
    const { original, target } = r.record as { original: unknown; target: unknown };
    return [original, target];
  });
  const rootVersionText = new Map(seven.records.filter((r) => r.kind === 'rootVersion').map((r) => [r.key, recordText(r)]));
  const expected = roots(seven).map((g) => {
    const { version } = g as { version: string };
    return rootVersionText.get(version) === JSON.stringify(g) ? { rootVersion: version } : g;
  });
  t.same(roots(eight), expected, 'each root by reference exactly where the root version of its version holds it');
  t.ok(roots(eight).some((g) => 'rootVersion' in (g as object)) && roots(eight).some((g) => 'apps' in (g as object)),
    'both forms are in the fixture (one original differs from the root version of the same version, written by an older pacer)');
});

t.test('format 8 → 9: an instance running, or unreachable after it had started, gets proven: true; every other record of format-8.json stays as it is', async (t) => {
  const [eight, nine] = [readFixture(8), readFixture(9)];
  t.same(nine.records.map(name), eight.records.map(name), 'the same records');
  const reader = new RunSpecRecordReader();
  let proven = 0;
  for (const r of eight.records) {
    const migrated = migrateStep(r.kind, recordText(r), 8, reader);
    const want = nine.records.find((w) => name(w) === name(r));
    t.equal(migrated, want === undefined ? '(missing)' : recordText(want), name(r));
    t.equal(migrateStep(r.kind, migrated, 8, reader), migrated, `${name(r)}: migrating it again changes nothing`);
    if (migrated === recordText(r)) continue;
    proven++;
    const record = r.record as { condition: string; startedAtMs?: number };
    t.ok(r.kind === 'instance' && (record.condition === 'Running' || record.startedAtMs !== undefined), `${name(r)}: only a started instance changes`);
    t.same(JSON.parse(migrated), { ...record, proven: true }, `${name(r)}: by proven: true alone`);
  }
  t.ok(proven > 0, `${proven} instances of the fixture became proven`);
  const rows: readonly { record: Record<string, unknown>; proven: boolean | undefined; why: string }[] = [
    { record: { condition: 'Running' }, proven: true, why: 'running' },
    { record: { condition: 'Unreachable', startedAtMs: 5 }, proven: true, why: 'unreachable after it had started' },
    { record: { condition: 'UnreachableInactive', startedAtMs: 5 }, proven: true, why: 'inactive after it had started' },
    { record: { condition: 'Unreachable' }, proven: undefined, why: 'unreachable before it started' },
    { record: { condition: 'Staging', startedAtMs: 5 }, proven: undefined, why: 'starting' },
    { record: { condition: 'Running', proven: false }, proven: false, why: 'a record that says already' },
  ];
  for (const row of rows) {
    const migrated = JSON.parse(migrateStep('instance', JSON.stringify(row.record), 8)) as { proven?: boolean };
    t.equal(migrated.proven, row.proven, row.why);
  }
});
