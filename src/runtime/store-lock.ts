import { basename } from 'node:path';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';

/** What a lock guards, as its refusal names it: `this store` and `--store`, or the sandboxes and `--sandbox`. */
export interface LockGuards {
  readonly what: string;
  readonly flag: string;
}

const STORE: LockGuards = { what: 'this store', flag: '--store' };

/**
 * One pacer per store: a lock file next to the store holding the owner's pid and, where the
 * system tells it (Linux's `/proc`), the owner's start time, created exclusively. A second pacer
 * on the same store (and so the same sandboxes and host ports) is refused with the owner's pid,
 * since two schedulers would fight over the same processes (Marathon ran one leader).
 *
 * A lock left by a process that no longer exists (after `kill -9`), or that has exited and waits
 * to be reaped (a zombie), is taken over, and so is one whose pid is in use by another process
 * now: the start time differs (a pid reused after a restart, above all pacer as PID 1 of a
 * container, which every restart is again). A lock of an older pacer holds no start time: it is
 * taken over when it names this process's own pid or a live process that is not Node.js.
 *
 * The lock file appears with the pid already in it (written to a file of this process, then
 * hard-linked into place, which fails when the lock exists): a pacer starting at the same moment
 * never reads an empty lock and takes it for a stale one.
 */
export class StoreLock {
  private constructor(private readonly path: string) {}

  /**
   * Takes the lock, or throws naming the live pid that holds it, or — when the lock cannot be
   * written (a full disk, a directory pacer may not write) — naming the lock and the system's error,
   * leaving no file behind.
   */
  static acquire(path: string, guards: LockGuards = STORE): StoreLock {
    const lock = StoreLock.tryAcquire(path);
    if (typeof lock === 'number') {
      throw new Error(`${path}: another pacer (pid ${lock}) is using ${guards.what}; stop it first, or use ${guards.flag} for another one`);
    }
    return lock;
  }

  /**
   * Takes the lock, or answers the pid of the live process that holds it. A lock naming a process
   * that is gone, or no process, is taken over.
   */
  static tryAcquire(path: string): StoreLock | number {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (create(path)) return new StoreLock(path);
      const owner = ownerOf(path);
      if (owner === 'gone') continue; // released meanwhile: try again
      if (owner !== undefined && holds(owner)) return owner.pid;
      try {
        unlinkSync(path);
      } catch {
        // Another process took it over first; the next attempt finds out.
      }
    }
    throw new Error(`${path}: cannot take the store lock`);
  }

  /**
   * The pid of the live process that holds the lock at `path` (possibly this one), or undefined
   * when the lock is free or stale (names a process that is gone, or no process): what
   * {@link acquire} would be refused by now. A leader elected with `--zk` waits on it rather than
   * fail (src/ha/store-lock-wait.ts).
   */
  static liveHolder(path: string): number | undefined {
    const owner = ownerOf(path);
    return typeof owner === 'object' && holds(owner) ? owner.pid : undefined;
  }

  /**
   * Whether this process holds the lock now, taking it again when its file is gone (removed with
   * the store's directory, which pacer is about to write again: restore-store-file.ts); false when
   * the lock names another process or cannot be read or written (another pacer may have started
   * on the path meanwhile: the store is then not written there).
   */
  holdsOrRetakes(): boolean {
    try {
      const owner = ownerOf(this.path);
      if (typeof owner === 'object' && owner.pid === process.pid && (owner.start === undefined || owner.start === OWN_START)) return true;
      return owner === 'gone' && create(this.path);
    } catch {
      return false;
    }
  }

  /** What a lock held by process `pid` holds (its pid and start time): for tests that stand a process in for a pacer. */
  static textOf(pid: number): string {
    const start = startOf(pid);
    return start === undefined ? String(pid) : `${pid} ${start}`;
  }

  release(): void {
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

/**
 * Creates the lock holding this pid; false when it exists. On a file system without hard links
 * the lock is created exclusively and written after (the window the link closes stays open there).
 */
function create(path: string): boolean {
  const mine = `${path}.${process.pid}`;
  try {
    writeFileSync(mine, OWN_TEXT);
  } catch (err) {
    // A full disk (ENOSPC) left an empty file here at every attempt, and the message named no file.
    rmSync(mine, { force: true });
    throw new Error(`cannot write the store lock ${path}: ${(err as Error).message}`);
  }
  try {
    linkSync(mine, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
  } finally {
    unlinkSync(mine);
  }
  try {
    writeFileSync(path, OWN_TEXT, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Who a lock names: a pid and, unless an older pacer wrote it, that process's start time. */
interface LockOwner {
  readonly pid: number;
  readonly start: string | undefined;
}

/** The owner the lock names; undefined when it names none; `gone` when there is no lock any more. */
function ownerOf(path: string): LockOwner | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    // EISDIR alone named neither the file nor its role.
    throw new Error(`cannot read the store lock ${path}: ${(err as Error).message}`);
  }
  const [pidText = '', start] = text.trim().split(' ');
  const pid = Number(pidText);
  return Number.isInteger(pid) && pid > 0 ? { pid, start: start === '' ? undefined : start } : undefined;
}

/** Whether the process the lock names still holds it (see {@link StoreLock}). */
function holds(owner: LockOwner): boolean {
  if (!alive(owner.pid)) return false;
  const stat = statOf(owner.pid);
  // Exited, and only waiting to be reaped (a zombie, `Z`, or `X`): it answers signal 0 and keeps
  // its start time, but holds nothing. A pacer killed with `kill -9` stays so until its parent
  // reaps it, which an init or supervisor slow to, or never doing it, makes last (1.5 s under this
  // VM's init): a restart meanwhile was refused as if the dead pacer still used the store.
  if (stat !== undefined && (stat[0] === 'Z' || stat[0] === 'X')) return false;
  const now = stat?.[START_FIELD];
  if (owner.start !== undefined && now !== undefined) return owner.start === now;
  if (owner.start === undefined && now !== undefined) return owner.pid !== process.pid && isNode(owner.pid);
  return true;
}

/**
 * When process `pid` started (`/proc/<pid>/stat` field 22, clock ticks since boot): with the pid,
 * it names one process for as long as the system runs. Undefined where there is no such file.
 */
function startOf(pid: number): string | undefined {
  return statOf(pid)?.[START_FIELD];
}

/** Field 22 of `/proc/<pid>/stat` among those {@link statOf} gives (they start at field 3). */
const START_FIELD = 19;

/**
 * The fields of `/proc/<pid>/stat` from its third on (the state first), or undefined where there
 * is no such file. The command before them is in parentheses and may itself hold spaces.
 */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs Node.js (its program's name has `node` in it); true when that cannot be read. */
function isNode(pid: number): boolean {
  try {
    const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return basename(program).includes('node');
  } catch {
    return true;
  }
}

/** This process's start time, and what its locks hold. */
const OWN_START = startOf(process.pid);
const OWN_TEXT = StoreLock.textOf(process.pid);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
