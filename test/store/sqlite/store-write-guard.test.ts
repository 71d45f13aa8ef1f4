import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { StoreWriteGuard } from '../../../src/store/sqlite/store-write-guard';
import { makeUnwritable, unwritableSkip } from '../../harness/read-only-file';
import { instance } from '../store-conformance';
import { openStore, tempDir, tempStorePath } from './store-fixture';

/*
 * The SQLite store under storage faults (the disk trial of 2026-11-30). Before: a store file pacer
 * could not write opened read-only without a word and the first write (a status update) stopped
 * pacer with exit 70; a full disk, a removed or a replaced store file were found only by a failed
 * write (which stops pacer), or never (writes to a removed file go on, and a restart finds nothing).
 */

const MIB = 1024 * 1024;
const skip = unwritableSkip();

t.test('a store file pacer cannot write is refused at open, naming it, and left as it was', { skip }, async (t) => {
  const path = tempStorePath(t);
  const first = SqliteStore.open(path);
  first.saveInstances([instance('i1')]);
  first.close();
  const unwritable = makeUnwritable(path);
  if ('cannot' in unwritable) throw new Error(unwritable.cannot);
  t.teardown(unwritable.undo);
  t.throws(() => SqliteStore.open(path), { message: new RegExp(`^store ${path} is not writable: E(ACCES|PERM); refusing to open it \\(it was not modified\\)\\. Let the user running pacer write the file and its directory`) });
  unwritable.undo();
  t.equal(openStore(t, path).load().instances.length, 1, 'once writable, it opens with its record');
});

t.test('the guard: a change may be written while the file is the one opened, writable, with the space asked for', async (t) => {
  let freeBytes = 100 * MIB;
  const path = tempStorePath(t);
  const store = openStore(t, path, { minFreeBytes: 64 * MIB, freeBytes: () => freeBytes });
  t.equal(store.writeRefusal(), undefined, 'room enough');
  freeBytes = 63 * MIB;
  t.equal(store.writeRefusal(), `the file system of the store ${path} has 63 MiB free, less than --store_min_free 64 MiB; changes are refused until space is freed (reads still work, nothing accepted before is lost)`);
  freeBytes = 1.25 * MIB;
  t.match(store.writeRefusal(), /has 1\.3 MiB free/, 'MiB to one decimal');
  freeBytes = 64 * MIB;
  t.equal(store.writeRefusal(), undefined, 'space freed: taken again, with nothing to reset');
  const unchecked = openStore(t, tempStorePath(t), { minFreeBytes: 0, freeBytes: () => 0 });
  t.equal(unchecked.writeRefusal(), undefined, '--store_min_free 0: free space is not checked');
  const unmeasurable = openStore(t, tempStorePath(t), { minFreeBytes: MIB, freeBytes: () => { throw new Error('ENOSYS'); } });
  t.equal(unmeasurable.writeRefusal(), undefined, 'no measure of free space: not refused for it');
});

t.test('the guard: the store file removed, or replaced by another file, refuses changes', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'pacer.db');
  SqliteStore.open(path).close();
  const guard = new StoreWriteGuard(path, 0);
  writeFileSync(join(dir, 'other.db'), '');
  t.throws(() => new StoreWriteGuard(join(dir, 'missing.db'), 0), { code: 'ENOENT' }, 'a guard needs the opened file');
  renameSync(path, join(dir, 'moved.db'));
  t.equal(guard.refusal(), `the store file ${path} was removed while pacer ran and could not be written again; changes are refused, as they could not be kept (pacer writes it again once it can: see its log, component store; a restart starts from what is at that path)`);
  renameSync(join(dir, 'moved.db'), path);
  t.equal(guard.refusal(), undefined, 'the same file back: taken again');
  renameSync(join(dir, 'other.db'), path);
  t.equal(guard.refusal(), `the store file ${path} was replaced by another file while pacer ran; changes are refused, as they would go to the file it replaced (restart pacer to use the new file)`);
  rmSync(dir, { recursive: true, force: true });
  t.match(guard.refusal(), /was removed while pacer ran/, 'its whole directory removed');
});

t.test('the guard: a store file that stops being writable refuses changes until it is again', { skip }, async (t) => {
  const path = tempStorePath(t);
  const store = openStore(t, path);
  const unwritable = makeUnwritable(path);
  if ('cannot' in unwritable) throw new Error(unwritable.cannot);
  t.teardown(unwritable.undo);
  t.match(store.writeRefusal(), new RegExp(`^the store file ${path} is not writable \\(E(ACCES|PERM)\\); changes are refused until it is`));
  unwritable.undo();
  t.equal(store.writeRefusal(), undefined);
});
