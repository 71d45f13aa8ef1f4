import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { instance } from '../store-conformance';
import { openStore, tempDir } from './store-fixture';

/*
 * The store file removed while pacer runs (README, "Storage faults"). Before: SQLite went on
 * writing to the removed file, API changes were refused, and everything pacer wrote meanwhile was
 * lost at the next start. Now the store writes the file again from the open store
 * (`restoreRemovedFile`, asked by the runtime before each API change and every second), and goes
 * on with it: a start finds every record, those written before, during and after the removal.
 */

const yes = (): boolean => true;
const ids = (path: string): string[] => {
  const store = SqliteStore.open(path);
  try {
    return store.load().instances.map((i) => i.instanceId).sort();
  } finally {
    store.close();
  }
};

t.test('a removed store file is written again from the open store, and the store goes on with it', async (t) => {
  const cases: { name: string; remove: (dir: string, path: string) => void }[] = [
    { name: 'the file removed (rm pacer.db)', remove: (_dir, path) => rmSync(path) },
    { name: 'the file and its log removed (rm pacer.db*)', remove: (_dir, path) => { for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true }); } },
    { name: 'the file moved elsewhere', remove: (dir, path) => renameSync(path, join(dir, '..', `moved-${Math.random()}.db`)) },
    { name: 'its whole directory removed', remove: (dir) => rmSync(dir, { recursive: true }) },
  ];
  for (const c of cases) {
    const dir = join(tempDir(t), 'store');
    mkdirSync(dir);
    const path = join(dir, 'pacer.db');
    const store = SqliteStore.open(path);
    t.teardown(() => store.close());
    store.saveInstances([instance('before')]);
    t.equal(store.restoreRemovedFile(yes), undefined, `${c.name}: nothing to do while the file is there`);
    c.remove(dir, path);
    store.saveInstances([instance('meanwhile')]);
    t.match(store.writeRefusal(), /was removed while pacer ran/, `${c.name}: the guard sees it before the restore`);
    const bytes = store.restoreRemovedFile(yes);
    t.ok(bytes !== undefined && bytes > 0, `${c.name}: written again (${bytes} bytes)`);
    t.equal(store.writeRefusal(), undefined, `${c.name}: changes are taken again`);
    store.saveInstances([instance('after')]);
    t.equal(store.restoreRemovedFile(yes), undefined, `${c.name}: once is enough`);
    t.same(readdirSync(dir).filter((f) => f.includes('restoring')), [], `${c.name}: no copy left beside it`);
    store.close();
    t.same(ids(path), ['after', 'before', 'meanwhile'], `${c.name}: a start finds the records of before, during and after`);
  }
});

t.test('a removed store file is not written again when it must not or cannot be', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'pacer.db');
  const store = openStore(t, path);
  store.saveInstances([instance('before')]);
  rmSync(path);
  t.equal(store.restoreRemovedFile(() => false), undefined, 'the lock is not this pacer\'s: not written');
  t.notOk(existsSync(path), 'nothing at the path');
  t.equal(store.atomically(() => store.restoreRemovedFile(yes)), undefined, 'not inside a transaction');
  t.notOk(existsSync(path), 'still nothing at the path');
  mkdirSync(`${path}.restoring-${process.pid}`);
  t.throws(() => store.restoreRemovedFile(yes), { code: 'ERR_FS_EISDIR' }, 'the copy cannot be written: the error goes to the caller');
  t.notOk(existsSync(path), 'nothing at the path');
  store.saveInstances([instance('still')]);
  rmSync(`${path}.restoring-${process.pid}`, { recursive: true });
  writeFileSync(path, 'another file');
  t.equal(store.restoreRemovedFile(yes), undefined, 'another file at the path: left alone');
  t.match(store.writeRefusal(), /was replaced by another file while pacer ran/, 'and changes are refused as before');
  rmSync(path);
  t.ok(store.restoreRemovedFile(yes), 'the path free again: written');
  store.close();
  t.same(ids(path), ['before', 'still'], 'with every record');
});
