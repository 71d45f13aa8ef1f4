import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Creates `path` and every missing parent, as `mkdirSync(path, { recursive: true })` would, and
 * returns. Node's recursive mkdir never returns under a file system that answers ENOENT for a
 * directory that cannot be made in a parent that exists (procfs: `--record /proc/x` spun at 100 %
 * CPU, deaf to SIGTERM, in Node 20; nodejs/node's MKDirpSync steps back to the parent on ENOENT,
 * finds it there, and tries again). Here the missing directories are made one by one, from the
 * nearest one that exists down, each with a plain mkdir whose error is thrown as it is (ENOENT,
 * EACCES, ENOTDIR, EPERM…). A directory made by someone else meanwhile (EEXIST) is fine.
 */
export function makeDirs(path: string): void {
  const missing: string[] = [];
  let dir = resolve(path);
  let found = statSync(dir, { throwIfNoEntry: false });
  while (found === undefined) {
    missing.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    found = statSync(dir, { throwIfNoEntry: false });
  }
  // The path itself exists: a directory is done; anything else gets mkdir's own EEXIST, as Node's does.
  if (missing.length === 0 && found?.isDirectory() !== true) mkdirSync(dir);
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * What a {@link makeDirs} error means for the one who named the path: a file that is not a
 * directory in the way (ENOTDIR, or mkdir's EEXIST: the system's words name no role), else the
 * error's own message. `option`, when given, is named after the former (`(--sandbox)`).
 */
export function whyNoDir(err: unknown, option?: string): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code !== 'ENOTDIR' && !(e.code === 'EEXIST' && e.syscall === 'mkdir')) return e.message;
  return `a file that is not a directory stands in its path${option === undefined ? '' : ` (${option})`}`;
}
