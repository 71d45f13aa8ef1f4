import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * One pacer per store: a lock file next to the store holding the owner's pid, created exclusively.
 * A second pacer on the same store (and so the same sandboxes and host ports) is refused with the
 * owner's pid, since two schedulers would fight over the same processes (Marathon ran one leader).
 * A lock left by a process that no longer exists (after `kill -9`) is taken over.
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
  static acquire(path: string): StoreLock {
    const lock = StoreLock.tryAcquire(path);
    if (typeof lock === 'number') {
      throw new Error(`${path}: another pacer (pid ${lock}) is using this store; stop it first, or use --store for another one`);
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
      if (owner !== undefined && alive(owner)) return owner;
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
    return typeof owner === 'number' && alive(owner) ? owner : undefined;
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
      if (owner === process.pid) return true;
      return owner === 'gone' && create(this.path);
    } catch {
      return false;
    }
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
    writeFileSync(mine, String(process.pid));
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
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** The pid the lock names; undefined when it names none; `gone` when there is no lock any more. */
function ownerOf(path: string): number | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
