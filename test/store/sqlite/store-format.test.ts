import { mkdirSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { Instance } from '../../../src/scheduler/model/instance';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { PACER_APPLICATION_ID, STORE_FORMAT_VERSION } from '../../../src/store/sqlite/store-format';
import { makeApp } from '../../builders/run-spec-builders';
import { openStore, tempDir, tempStorePath, withRawDb } from './store-fixture';

/** A closed pacer store with enough rows to span many pages. */
function writtenStore(t: Test): string {
  const path = tempStorePath(t);
  const store = SqliteStore.open(path);
  const instances = Array.from({ length: 300 }, (_, i): Instance => Instance.from({
    instanceId: `app.instance-${String(i).padStart(4, '0')}`, runSpecId: '/app', kind: 'app', runSpecVersion: 'v', configVersion: 'v',
    incarnation: 1, goal: 'Running', condition: 'Running', conditionSinceMs: i, role: '*', tasks: [],
  }));
  store.saveInstances(instances);
  store.saveRunSpec(makeApp());
  store.close();
  return path;
}

/** `open` must throw `message`, and leave the file byte-for-byte as it was, and its directory as it was. */
function refusedUnchanged(t: Test, path: string, message: RegExp, name: string): void {
  const before = readFileSync(path);
  const dir = join(path, '..');
  const filesBefore = readdirSync(dir).sort();
  t.throws(() => SqliteStore.open(path), { message }, `${name}: refused`);
  t.ok(readFileSync(path).equals(before), `${name}: the file is byte-for-byte unchanged`);
  t.same(readdirSync(dir).sort(), filesBefore, `${name}: no file appeared or went away beside it`);
}

t.test('a new store is stamped with the application id and the format version, in WAL mode', async (t) => {
  const path = tempStorePath(t);
  SqliteStore.open(path).close();
  const db = new Database(path, { readonly: true });
  t.teardown(() => db.close());
  t.equal(db.pragma('application_id', { simple: true }), PACER_APPLICATION_ID);
  t.equal(db.pragma('user_version', { simple: true }), STORE_FORMAT_VERSION);
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal', 'WAL mode is persistent in the file');
});

t.test('an empty file and an empty SQLite database are initialised', async (t) => {
  const empty = join(tempDir(t), 'empty.db');
  writeFileSync(empty, '');
  const emptyDb = join(tempDir(t), 'empty-sqlite.db');
  withRawDb(emptyDb, () => undefined);
  for (const path of [empty, emptyDb]) {
    const store = openStore(t, path);
    store.saveFrameworkId('fw');
    t.equal(store.load().frameworkId, 'fw', path);
  }
});

t.test('a store of this format version reopens as it is', async (t) => {
  const path = writtenStore(t);
  t.equal(openStore(t, path).load().instances.length, 300);
});

t.test('a newer format version is refused with a clear message, and the file is not modified', async (t) => {
  const path = writtenStore(t);
  withRawDb(path, (db) => db.pragma(`user_version = ${STORE_FORMAT_VERSION + 1}`));
  const expected = `store ${path} has format version ${STORE_FORMAT_VERSION + 1}, this pacer understands up to ${STORE_FORMAT_VERSION}; refusing to open it (it was not modified)`;
  refusedUnchanged(t, path, new RegExp(`^${escape(expected)}$`), 'newer version');
});

t.test('files that are not a pacer store are refused, named, with what to do, and never modified', async (t) => {
  const dir = tempDir(t);
  const garbage = join(dir, 'garbage.db');
  writeFileSync(garbage, 'this is not a database at all\n'.repeat(200));
  refusedUnchanged(t, garbage, new RegExp(`^store ${escape(garbage)} is not a SQLite database; refusing .*Point the store at another path`), 'text file');

  const tiny = join(dir, 'tiny.db');
  writeFileSync(tiny, 'SQLite');
  refusedUnchanged(t, tiny, /is not a SQLite database/, 'shorter than a header');

  const foreign = join(dir, 'foreign.db');
  withRawDb(foreign, (db) => db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (\'x\')'));
  refusedUnchanged(t, foreign, new RegExp(`^store ${escape(foreign)} is a SQLite database but not a pacer store \\(application_id 0`), 'another program\'s database');

  const lower = join(dir, 'lower.db');
  withRawDb(lower, (db) => db.pragma(`application_id = ${PACER_APPLICATION_ID}`));
  refusedUnchanged(t, lower, /has format version 0, which no pacer wrote/, 'our marker without a format version');
});

t.test('a truncated store is refused and left as it is', async (t) => {
  const path = writtenStore(t);
  const size = readFileSync(path).length;
  t.ok(size > 8 * 4096, 'the store spans many pages');
  truncateSync(path, Math.floor(size / 2));
  refusedUnchanged(t, path, new RegExp(`^store ${escape(path)} is corrupt or unreadable \\(.*\\); refusing .*Restore it from a backup`), 'truncated to half');
});

t.test('a store whose header disagrees with its pages is refused with quick_check\'s findings and left as it is', async (t) => {
  const path = writtenStore(t);
  const bytes = readFileSync(path);
  bytes.writeUInt32BE(2, 36); // the header's free-list page count; the store has no free pages
  writeFileSync(path, bytes);
  refusedUnchanged(t, path, new RegExp(`^store ${escape(path)} is corrupt or unreadable \\(Freelist: size is 0 but should be 2\\); refusing`), 'bad free-list count');
});

t.test('a store with a damaged page is refused and left as it is', async (t) => {
  const path = writtenStore(t);
  const bytes = readFileSync(path);
  const pageSize = bytes.readUInt16BE(16);
  // Page 2 onwards are b-tree pages: overwrite a later page's header and cell pointers.
  bytes.fill(0xff, 3 * pageSize, 3 * pageSize + 64);
  writeFileSync(path, bytes);
  refusedUnchanged(t, path, /is corrupt or unreadable/, 'damaged page');
});

t.test('a pacer store that lost one of its tables is refused naming the file and the table, and left as it is', async (t) => {
  // It passed every check of the file and stopped start-up later with "no such table: instances",
  // which named neither the file nor what to do.
  for (const table of ['instances', 'run_specs', 'root', 'framework', 'deployments', 'root_versions', 'run_spec_versions', 'task_failures']) {
    const path = writtenStore(t);
    withRawDb(path, (db) => db.exec(`DROP TABLE ${table}`));
    refusedUnchanged(t, path, new RegExp(`^store ${escape(path)} is corrupt or unreadable \\(it has no table ${table}\\); refusing .*Restore it from a backup`), `without ${table}`);
  }
  const path = writtenStore(t);
  withRawDb(path, (db) => db.exec('CREATE TABLE notes (body TEXT)'));
  t.doesNotThrow(() => SqliteStore.open(path).close(), 'a table of its own beside them is no reason to refuse it');
});

t.test('a path that is a directory is refused', async (t) => {
  const dir = join(tempDir(t), 'store.db');
  mkdirSync(dir);
  t.throws(() => SqliteStore.open(dir), { message: new RegExp(`^store ${escape(dir)} is not a regular file`) });
});

t.test('a row that does not decode is set aside by load(), kept with its reason, and the rest loads (issue 11)', async (t) => {
  const path = writtenStore(t);
  withRawDb(path, (db) => db.prepare('UPDATE instances SET body = ? WHERE id = ?').run('{"$map":1}', 'app.instance-0007'));
  const store = openStore(t, path);
  const loaded = store.load();
  t.equal(loaded.instances.length, 299, 'every other instance');
  t.notOk(loaded.instances.some((i) => i.instanceId === 'app.instance-0007'));
  t.same(loaded.setAside, [{ kind: 'instance', key: 'app.instance-0007', reason: "does not match StoredInstanceV1: must have required property 'instanceId'" }]);
  t.match(store.setAsideRows(), [{ kind: 'instance', key: 'app.instance-0007', body: '{"$map":1}', reason: "does not match StoredInstanceV1: must have required property 'instanceId'", setAsideAt: String }]);
  t.equal(store.load().setAside, undefined, 'moved out of the way: the next load is clean');
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
