import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { waitFor } from '../harness/wait';
import { StoreLock } from '../../src/runtime/store-lock';

/** The pid of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  return pid;
}

/** A live child process (Node.js, or `sleep`), killed at the end of the test. */
function liveChild(t: Test, node: boolean): number {
  const child = node ? spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' }) : spawn('sleep', ['600'], { stdio: 'ignore' });
  t.teardown(() => void child.kill('SIGKILL'));
  return child.pid ?? 0;
}

const onLinux = existsSync(`/proc/${process.pid}/stat`);

t.test('the store lock: one holder; a lock of a process that is gone, of none, or of a pid in use by another process now, is taken over', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const node = liveChild(t, true);
  const sleeper = liveChild(t, false);
  const cases: { name: string; before?: string; held: number | false; linuxOnly?: true }[] = [
    { name: 'no lock', held: false },
    { name: 'a lock of a live pacer (a Node.js child standing in)', before: StoreLock.textOf(node), held: node },
    { name: 'a lock of a process that is gone (kill -9)', before: String(deadPid()), held: false },
    { name: 'an empty lock (an older pacer killed while writing it)', before: '', held: false },
    { name: 'a lock naming no process', before: 'garbage', held: false },
    // pacer as PID 1 of a container: restarted, it is PID 1 again, and the lock names it.
    { name: 'a lock naming this pid, of an earlier process (another start time)', before: `${process.pid} 1`, held: false, linuxOnly: true },
    { name: 'a lock naming a live pid of another start time (the pid reused)', before: `${node} 1`, held: false, linuxOnly: true },
    { name: 'an older pacer\'s lock (a pid alone) naming this process\'s pid', before: String(process.pid), held: false, linuxOnly: true },
    { name: 'an older pacer\'s lock naming a live process that is not Node.js', before: String(sleeper), held: false, linuxOnly: true },
    { name: 'an older pacer\'s lock naming a live Node.js process', before: String(node), held: node },
  ];
  for (const [i, c] of cases.entries()) {
    if (c.linuxOnly === true && !onLinux) continue;
    const path = join(dir, `store-${i}.db.lock`);
    if (c.before !== undefined) writeFileSync(path, c.before);
    const got = StoreLock.tryAcquire(path);
    if (c.held !== false) {
      t.equal(got, c.held, `${c.name}: held, by that pid`);
      t.equal(StoreLock.liveHolder(path), c.held, `${c.name}: the live holder`);
      t.throws(() => StoreLock.acquire(path), { message: `${path}: another pacer (pid ${c.held}) is using this store; stop it first, or use --store for another one` });
      rmSync(path);
      continue;
    }
    t.type(got, StoreLock, `${c.name}: taken`);
    t.equal(readFileSync(path, 'utf8'), StoreLock.textOf(process.pid), `${c.name}: the lock names this process`);
    t.equal(StoreLock.liveHolder(path), process.pid, `${c.name}: this process is the live holder`);
    t.equal(StoreLock.tryAcquire(path), process.pid, `${c.name}: a second taker is refused`);
    (got as StoreLock).release();
    t.notOk(existsSync(path), `${c.name}: released`);
  }
  t.same(readdirSync(dir), [], 'no file of the taking left behind');
});

/** `/proc/<pid>/stat`'s state letter of process `pid` (`Z`: exited, not reaped yet), undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

// Found by an operator's trial (2026-12-03): `kill -9` of a pacer whose parent (here the VM's
// init) reaps it only after ~1.5 s, then a restart at once: `another pacer (pid N) is using this
// store`, N being the dead pacer, a zombie, which answers signal 0 and keeps its start time.
t.test('a lock of a pacer that was killed and waits to be reaped (a zombie) is taken over', { skip: onLinux ? false : 'needs /proc' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A Node.js process standing in for pacer, whose parent never reaps it: the shell that started
  // it in the background became `sleep` (exec), which waits for no child.
  const parent = spawn('sh', ['-c', `"${process.execPath}" -e 'setTimeout(() => {}, 600000)' & echo $!; exec sleep 600`], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => void parent.kill('SIGKILL'));
  let out = '';
  parent.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const pid = await waitFor(() => /^\d+\n/.test(out) && Number(out.trim()), 'the stand-in pacer\'s pid');
  t.teardown(() => { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } });
  await waitFor(() => StoreLock.textOf(pid).includes(' '), 'the stand-in pacer\'s start time');
  const path = join(dir, 'pacer.db.lock');
  writeFileSync(path, StoreLock.textOf(pid));
  t.equal(StoreLock.liveHolder(path), pid, 'held while the stand-in runs');
  process.kill(pid, 'SIGKILL');
  await waitFor(() => stateOf(pid) === 'Z', 'the killed stand-in to be a zombie');
  t.equal(StoreLock.liveHolder(path), undefined, 'a zombie holds no lock');
  const lock = StoreLock.acquire(path);
  t.equal(readFileSync(path, 'utf8'), StoreLock.textOf(process.pid), 'taken over: the lock names this process');
  lock.release();
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
    { name: 'untouched', meanwhile: () => undefined, holds: true, after: StoreLock.textOf(process.pid) },
    { name: 'its file removed (with the store file)', meanwhile: (path) => rmSync(path), holds: true, after: StoreLock.textOf(process.pid) },
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
