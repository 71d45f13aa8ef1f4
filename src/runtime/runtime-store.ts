import type { Store } from '../scheduler/ports/store';
import type { Durability } from '../store/durable-driver';

/**
 * The store a real-time composition runs on: the Store port, one transaction per command
 * (`atomically`), closing, and — when its writes become durable only after the call returns (the
 * ZooKeeper store) — its {@link Durability}, which the cluster driver (src/store/durable-driver.ts)
 * and the API's replies to changes (durable-replies.ts) wait for. The embedded SQLite store has
 * none: its writes are durable when they return.
 */
export interface RuntimeStore extends Store {
  atomically<T>(fn: () => T): T;
  /** Releases the store; a store that writes behind first writes what is queued (bounded). */
  close(): void;
  readonly durability?: Durability;
  /**
   * Why an API change must not be taken now, or undefined (the SQLite store: its file removed,
   * replaced, not writable, or too little free space; src/store/sqlite/store-write-guard.ts).
   * Absent: always taken.
   */
  writeRefusal?(): string | undefined;
  /**
   * Writes the store file again when it was removed while pacer ran, if `mayRestore` agrees; the
   * bytes written, or undefined (the SQLite store: sqlite-store.ts; restore-store-file.ts calls
   * it). Absent: nothing to restore (ZooKeeper).
   */
  restoreRemovedFile?(mayRestore: () => boolean): number | undefined;
}
