import { accessSync, constants, existsSync, statSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Bytes free to an unprivileged writer on the file system holding `dir` (`statfs`'s `bavail`). */
export type FreeBytes = (dir: string) => number;

/** The real measure: `statfs(2)` of the directory. */
export const diskFreeBytes: FreeBytes = (dir) => {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
};

/**
 * Default of `--store_min_free`: the space the store's file system must keep free for pacer to take
 * a change. The reserve is for the writes that must still land once a change is taken — instances
 * saved before their launch, status updates, deployment steps — which pacer cannot refuse: a
 * failed write of those stops pacer (docs/limits.md).
 */
export const DEFAULT_STORE_MIN_FREE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

/**
 * Says, before a change is taken, whether the store file can keep it. SQLite reports a full disk,
 * a read-only file or a file deleted under it only when a write fails (or, for a deleted file,
 * never: its writes go on to the unlinked inode, and a restart finds nothing), and a write that
 * fails in the middle of a command leaves the core ahead of the store, which stops pacer. So each
 * API change is checked first, and refused (503, the reason) while:
 *
 * - the path no longer names the file opened (removed, or replaced by another file or directory);
 * - the file is not writable (`access(W_OK)`: a read-only mount, lost permissions);
 * - the file system has less than `minFreeBytes` free (0: not checked).
 *
 * It reads only metadata (two `stat`s and an `access`), so it costs microseconds a change, and it
 * holds no state: once the cause is gone (space freed, permissions back) changes pass again. A
 * removed file is written again by the store before the guard is asked
 * (`SqliteStore.restoreRemovedFile`, sqlite-store.ts); the guard refuses only when that could not be done.
 */
export class StoreWriteGuard {
  private identity: { readonly dev: number; readonly ino: number };

  /** Takes the identity of the file at `path` now (it must exist: the store just opened it). */
  constructor(
    readonly path: string,
    private readonly minFreeBytes: number,
    private readonly freeBytes: FreeBytes = diskFreeBytes,
  ) {
    const stat = statSync(path);
    this.identity = { dev: stat.dev, ino: stat.ino };
  }

  /** True when no file is at the path any more (removed, or its directory removed): what the store restores (sqlite-store.ts). */
  removed(): boolean {
    return statOrUndefined(this.path) === undefined;
  }

  /** Takes the identity of the file at the path now: the store put a new file there (`SqliteStore.restoreRemovedFile`, sqlite-store.ts). */
  renew(): void {
    const stat = statSync(this.path);
    this.identity = { dev: stat.dev, ino: stat.ino };
  }

  /** Undefined when a change may be written; else one sentence for the client and the log saying why not and what to do. */
  refusal(): string | undefined {
    const now = statOrUndefined(this.path);
    if (now === undefined) {
      return `the store file ${this.path} was removed while pacer ran and could not be written again; changes are refused, as they could not be kept (pacer writes it again once it can: see its log, component store; a restart starts from what is at that path)`;
    }
    if (now.dev !== this.identity.dev || now.ino !== this.identity.ino) {
      return `the store file ${this.path} was replaced by another file while pacer ran; changes are refused, as they would go to the file it replaced (restart pacer to use the new file)`;
    }
    const denied = writeDenied(this.path);
    if (denied !== undefined) {
      return `the store file ${this.path} is not writable (${denied}); changes are refused until it is (reads still work, nothing accepted before is lost)`;
    }
    if (this.minFreeBytes <= 0) return undefined;
    let free: number;
    try {
      free = this.freeBytes(dirname(this.path));
    } catch {
      return undefined; // No measure (statfs unsupported): SQLite still reports a full disk itself.
    }
    if (free >= this.minFreeBytes) return undefined;
    return `the file system of the store ${this.path} has ${mib(free)} MiB free, less than --store_min_free ${mib(this.minFreeBytes)} MiB; changes are refused until space is freed (reads still work, nothing accepted before is lost)`;
  }
}

function statOrUndefined(path: string): { readonly dev: number; readonly ino: number } | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES on a parent: the path names no file pacer can reach
  }
}

/**
 * Throws, naming the path, when pacer could not write the store file (or create it, and its WAL,
 * in its directory): asked when the store opens (SQLite would open a read-only file read-only
 * without a word, and the first write would stop pacer), as {@link StoreWriteGuard} asks before
 * each change.
 */
export function checkWritable(path: string): void {
  for (const target of existsSync(path) ? [path, dirname(path)] : [dirname(path)]) {
    const denied = writeDenied(target);
    if (denied === undefined) continue;
    if (denied === 'ENOENT') throw new Error(`store ${path}: its directory ${target} does not exist`);
    const what = target === path ? 'is not writable' : `is in a directory that is not writable (${target})`;
    throw new Error(
      `store ${path} ${what}: ${denied}; refusing to open it (it was not modified). ` +
        'Let the user running pacer write the file and its directory, or point --store at another path.',
    );
  }
}

/** The system's code (`EACCES`, `EROFS`, `ENOENT`, …) when this process may not write `target` (`access(W_OK)`), else undefined. */
function writeDenied(target: string): string | undefined {
  try {
    accessSync(target, constants.W_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1).replace(/\.0$/, '');
}
