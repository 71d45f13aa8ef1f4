import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { StoreLock } from '../../src/runtime/store-lock';

/** The pid of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  return pid;
}

t.test('the store lock: one holder; a lock of a process that is gone, or of none, is taken over', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const cases: { name: string; before?: string; held: boolean }[] = [
    { name: 'no lock', held: false },
    { name: 'a lock of a live process (this one)', before: String(process.pid), held: true },
    { name: 'a lock of a process that is gone (kill -9)', before: String(deadPid()), held: false },
    { name: 'an empty lock (an older pacer killed while writing it)', before: '', held: false },
    { name: 'a lock naming no process', before: 'garbage', held: false },
  ];
  for (const [i, c] of cases.entries()) {
    const path = join(dir, `store-${i}.db.lock`);
    if (c.before !== undefined) writeFileSync(path, c.before);
    const got = StoreLock.tryAcquire(path);
    if (c.held) {
      t.equal(got, process.pid, `${c.name}: held, by that pid`);
      t.throws(() => StoreLock.acquire(path), { message: `${path}: another pacer (pid ${process.pid}) is using this store; stop it first, or use --store for another one` });
      continue;
    }
    t.type(got, StoreLock, `${c.name}: taken`);
    t.equal(readFileSync(path, 'utf8'), String(process.pid), `${c.name}: the lock names this process`);
    t.equal(StoreLock.tryAcquire(path), process.pid, `${c.name}: a second taker is refused`);
    (got as StoreLock).release();
    t.notOk(existsSync(path), `${c.name}: released`);
  }
  t.same(readdirSync(dir).filter((f) => !/^store-1\.db\.lock$/.test(f)), [], 'no file of the taking left behind');
});

t.test('a lock that cannot be written (a full disk) is refused naming the lock, and leaves no file behind', { skip: existsSync('/dev/full') ? false : 'no /dev/full here' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'pacer.db.lock');
  // The lock is first written to <lock>.<pid>: pointed at /dev/full, that write fails with a real ENOSPC, as on a full disk.
  symlinkSync('/dev/full', `${path}.${process.pid}`);
  t.throws(() => StoreLock.acquire(path), { message: `cannot write the store lock ${path}: ENOSPC: no space left on device, write` });
  t.same(readdirSync(dir), [], 'nothing left where the lock was being written');
});

t.test('holdsOrRetakes: the lock kept, taken back when its file was removed, never taken from another process', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const cases: { name: string; meanwhile: (path: string) => void; holds: boolean; after: string | undefined }[] = [
    { name: 'untouched', meanwhile: () => undefined, holds: true, after: String(process.pid) },
    { name: 'its file removed (with the store file)', meanwhile: (path) => rmSync(path), holds: true, after: String(process.pid) },
    { name: 'another live process holds it now (pid 1)', meanwhile: (path) => writeFileSync(path, '1'), holds: false, after: '1' },
    { name: 'a lock naming a process that is gone', meanwhile: (path) => writeFileSync(path, String(deadPid())), holds: false, after: undefined },
    { name: 'its whole directory removed', meanwhile: (path) => rmSync(join(path, '..'), { recursive: true }), holds: false, after: undefined },
  ];
  for (const [i, c] of cases.entries()) {
    const lockDir = mkdtempSync(join(dir, `d${i}-`));
    const path = join(lockDir, 'pacer.db.lock');
    const lock = StoreLock.acquire(path);
    c.meanwhile(path);
    t.equal(lock.holdsOrRetakes(), c.holds, c.name);
    if (c.after !== undefined) t.equal(readFileSync(path, 'utf8'), c.after, `${c.name}: the lock file names pid ${c.after}`);
  }
});
