import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/**
 * One pacer per store: a lock file next to the store holding the owner's pid, created exclusively.
 * A second pacer on the same store (and so the same sandboxes and host ports) is refused with the
 * owner's pid, since two schedulers would fight over the same processes (Marathon ran one leader).
 * A lock left by a process that no longer exists (after `kill -9`) is taken over.
 */
export class StoreLock {
  private constructor(private readonly path: string) {}

  static acquire(path: string): StoreLock {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new StoreLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = Number(readFileSync(path, 'utf8').trim());
        if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
          throw new Error(`${path}: another pacer (pid ${owner}) is using this store; stop it first, or use --store for another one`);
        }
        unlinkSync(path);
      }
    }
    throw new Error(`${path}: cannot take the store lock`);
  }

  release(): void {
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
