import type { PacerLog } from './pacer-log';
import type { RuntimeStore } from './runtime-store';
import type { StoreLock } from './store-lock';

/**
 * How often pacer looks for a removed store file between API changes (each change looks first):
 * its own writes (status updates, deployment steps) made meanwhile are in the open store, which a
 * restore copies, so this bounds only how long they live in the removed file alone.
 */
export const STORE_FILE_CHECK_MS = 1000;

/** {@link keepStoreFile}'s result: `check` now (before each API change), `stop` the periodic checks. */
export interface StoreFileKeeper {
  check(): void;
  stop(): void;
}

/**
 * Keeps the SQLite store file at its path while pacer runs: when it was removed (or its
 * directory), the store writes it again from the open store (`SqliteStore.restoreRemovedFile`),
 * before each API change and every {@link STORE_FILE_CHECK_MS} — but only while this pacer still
 * holds the store's lock, taken back if it was removed with the file (another pacer started on
 * the path meanwhile keeps it). The log (component `store`) says `warn` when a file was written
 * again and `error`, once per cause, when it could not be (the write guard then answers changes
 * 503, store-write-refusal.ts). A store without the ability (ZooKeeper) gets no checks.
 */
export function keepStoreFile(store: RuntimeStore, storePath: string, lock: StoreLock, log: PacerLog): StoreFileKeeper {
  const restore = store.restoreRemovedFile?.bind(store);
  if (restore === undefined) return { check: () => undefined, stop: () => undefined };
  const storeLog = log.child({ component: 'store' });
  let failing: string | undefined;
  const check = (): void => {
    let lockLost = false;
    try {
      const bytes = restore(() => {
        lockLost = !lock.holdsOrRetakes();
        return !lockLost;
      });
      if (lockLost) fail(`the store file ${storePath} was removed while pacer ran, and its lock ${storePath}.lock is not this pacer's any more (another pacer on the same store?): pacer does not write the file again`);
      else if (bytes !== undefined) {
        failing = undefined;
        storeLog.warn(`the store file ${storePath} was removed while pacer ran; wrote it again from the open store (${bytes} bytes): nothing accepted or written since is lost`);
      }
    } catch (err) {
      fail(`the store file ${storePath} was removed while pacer ran and could not be written again: ${(err as Error).message}`);
    }
  };
  const fail = (message: string): void => {
    if (message !== failing) storeLog.error(message);
    failing = message;
  };
  const timer = setInterval(check, STORE_FILE_CHECK_MS);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
