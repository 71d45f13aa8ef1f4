import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { startLocal } from '../../src/runtime/start-local';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { STORE_FORMAT_VERSION } from '../../src/store/sqlite/store-format';
import { tempDir, within } from './e2e-kit';
import { e2eConfig, startPacer } from './pacer-kit';

/**
 * `startLocal` on a store it must not use: it rejects with a message naming the file and what to
 * do, and leaves the file byte for byte as it was, with no side files and no sandbox created
 * (the store is checked before anything else is touched).
 */

/** A pacer store of the current format holding one app, written through startLocal and closed. */
async function realStore(t: Test, dir: string): Promise<void> {
  const pacer = await startPacer(t, e2eConfig(dir));
  const created = await pacer.request('POST', '/v2/apps', { id: '/kept', cmd: 'sleep 1000', cpus: 0.1, mem: 16, instances: 0 });
  t.equal(created.status, 201, 'a real store with an app in it');
  await pacer.close();
}

/** Each kind of store file to refuse: how to make it, and what the message must say. */
const CASES: readonly { name: string; make: (t: Test, dir: string, path: string) => Promise<void> | void; message: RegExp }[] = [
  {
    name: 'a garbage file',
    make: (_t, _dir, path) => writeFileSync(path, Buffer.concat([Buffer.from('this is not a database\n'), Buffer.alloc(5000, 0x5a)])),
    message: /is not a SQLite database; refusing to open it \(it was not modified\)/,
  },
  {
    name: 'a short text file',
    make: (_t, _dir, path) => writeFileSync(path, 'hello\n'),
    message: /is not a SQLite database/,
  },
  {
    name: 'a store of a newer format',
    make: async (t, dir, path) => {
      await realStore(t, dir);
      const db = new Database(path);
      db.pragma(`user_version = ${STORE_FORMAT_VERSION + 1}`);
      db.close();
    },
    message: new RegExp(`has format version ${STORE_FORMAT_VERSION + 1}, this pacer understands up to ${STORE_FORMAT_VERSION}; refusing to open it \\(it was not modified\\)`),
  },
  {
    name: 'another program\'s SQLite database',
    make: (_t, _dir, path) => {
      const db = new Database(path);
      db.exec('CREATE TABLE t (x)');
      db.close();
    },
    message: /is a SQLite database but not a pacer store/,
  },
  {
    name: 'a corrupt pacer store',
    make: async (t, dir, path) => {
      await realStore(t, dir);
      const bytes = readFileSync(path);
      bytes.fill(0xab, 4096, 8192);
      writeFileSync(path, bytes);
    },
    message: /is corrupt or unreadable .*refusing to open it \(it was not modified\)/,
  },
  {
    // The disk trial (2026-11-30): such a store was taken for a new, empty one — started with no
    // apps, and its log overwritten — where the records it held are in the log.
    name: 'a store file cut to zero bytes beside a write-ahead log that is not empty',
    make: async (t, dir, path) => {
      const pacer = await startPacer(t, e2eConfig(dir));
      t.equal((await pacer.request('POST', '/v2/apps', { id: '/kept', cmd: 'sleep 1000', cpus: 0.1, mem: 16, instances: 0 })).status, 201);
      const wal = readFileSync(`${path}-wal`); // the log as a crash would leave it
      await pacer.close(); // checkpoints and removes the log: put it back, and cut the file
      writeFileSync(`${path}-wal`, wal);
      writeFileSync(path, '');
    },
    message: /is empty but its write-ahead log .*-wal holds \d+ bytes .*refusing to open it \(it was not modified\)\. Restore both from a backup/,
  },
];

for (const c of CASES) {
  t.test(`startLocal refuses ${c.name}, leaving it byte-identical`, async (t) => {
    const dir = tempDir(t);
    const config = e2eConfig(dir, { sandboxRoot: join(dir, 'refused-sandboxes') });
    await c.make(t, dir, config.storePath);
    const before = readFileSync(config.storePath);
    const listing = readdirSync(dir).sort();
    const err = await within(startLocal(config).then(() => undefined, (e: unknown) => e), 'startLocal');
    t.type(err, Error, 'startLocal rejects');
    t.match((err as Error).message, c.message, 'the message says what is wrong');
    t.ok((err as Error).message.includes(config.storePath), 'and names the file');
    t.ok(readFileSync(config.storePath).equals(before), 'the file is byte-identical');
    t.same(readdirSync(dir).sort(), listing, 'no side file (-wal, -shm) was left, nothing else was created');
    t.notOk(existsSync(config.sandboxRoot), 'no sandbox was created');
  });
}

t.test('a refused store can still be opened once it is fixed (nothing was held open)', async (t) => {
  const dir = tempDir(t);
  const config = e2eConfig(dir);
  await realStore(t, dir);
  const db = new Database(config.storePath);
  db.pragma(`user_version = ${STORE_FORMAT_VERSION + 1}`);
  db.close();
  await t.rejects(startLocal(config), /format version/);
  const fix = new Database(config.storePath);
  fix.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
  fix.close();
  const pacer = await startPacer(t, config);
  const kept = await pacer.request('GET', '/v2/apps/kept');
  t.equal(kept.status, 200, 'the app in the store is served');
  await pacer.close();
  const store = SqliteStore.open(config.storePath);
  t.equal(store.load().runSpecs.length, 1, 'and the store still holds it');
  store.close();
});
