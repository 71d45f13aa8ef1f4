import { linkSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Deployment } from '../../scheduler/model/deployment';
import type { Group } from '../../scheduler/index';
import { StoredRootVersions } from '../records/stored-root-versions';
import type { Instance } from '../../scheduler/model/instance';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { TaskFailure } from '../../scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredState } from '../../scheduler/ports/store';
import { encodeRecord } from '../records/record-codec';
import { loadRecords } from '../records/load-records';
import { KIND_TABLES } from './kind-tables';
import { inspectStoreFile } from './inspect-store-file';
import { moveAside, type SetAsideRow, setAsideRows } from './set-aside';
import { initialiseStore } from './store-format';
import { migrateStore } from './store-migrations';
import { prepareStatements, type StoreStatements } from './store-statements';
import { checkWritable, type FreeBytes, StoreWriteGuard } from './store-write-guard';

/** How hard a commit is pushed to disk before a write returns (SQLite's `PRAGMA synchronous`). */
export type StoreSynchronous = 'NORMAL' | 'FULL';

export interface SqliteStoreOptions {
  /**
   * `NORMAL` (default): in WAL mode a commit is in the OS's hands when the call returns, so it
   * survives a crash or `kill -9` of the process; a power loss or OS crash may lose the last
   * commits (the file stays consistent). `FULL`: the WAL is fsync'd on every commit, so commits
   * also survive a power loss, at the cost of one fsync per write.
   */
  readonly synchronous?: StoreSynchronous;
  /**
   * Space the file system must keep free for {@link SqliteStore.writeRefusal} to let a change
   * through (`--store_min_free`; default 0: free space is not checked, only the file).
   */
  readonly minFreeBytes?: number;
  /** How free space is measured (tests replace it; default `statfs`). */
  readonly freeBytes?: FreeBytes;
}

/**
 * The embedded durable store (issue 5): one SQLite file through better-sqlite3, in WAL mode.
 * Every write is one synchronous transaction — when a method returns its record is durable (see
 * {@link SqliteStoreOptions.synchronous} for how durable) — which is what lets the core persist an
 * instance before it accepts an offer. Objects are encoded (copied) before the call returns, so the
 * core may keep mutating them. Statements are prepared once, at open.
 *
 * Open it with {@link SqliteStore.open}; a file that is not a pacer store, is corrupt, or was
 * written by a newer pacer is refused without being modified. Within a sound file, a record that
 * cannot be loaded never stops a start: it is moved to the `set_aside` table (set-aside.ts).
 */
export class SqliteStore implements Store {
  private saveInstancesTx!: (instances: readonly Instance[]) => void;
  private sql!: StoreStatements;
  /**
   * The root versions stored, by object: what a deployment's record may refer to (store format 8).
   * A root version saved in a transaction that rolls back stays in it; that happens only when a
   * write fails or the core throws, and either stops pacer (README, "Storage faults").
   */
  private readonly rootVersions = new StoredRootVersions();

  private constructor(
    /** The file this store writes (for error messages). */
    readonly path: string,
    private db: Database.Database,
    private readonly guard: StoreWriteGuard,
    private readonly synchronous: StoreSynchronous,
  ) {
    this.prepare(db);
  }

  /** Statements are prepared once per connection: at open, and for the file a restore writes. */
  private prepare(db: Database.Database): void {
    const sql = prepareStatements(db);
    this.sql = sql;
    this.saveInstancesTx = db.transaction((instances: readonly Instance[]) => {
      for (const inst of instances) sql.saveInstance.run(inst.instanceId, encodeRecord('instance', inst));
    });
  }

  /**
   * Open (or create) the store at `path`. A missing or empty file is initialised (an empty one
   * beside a write-ahead log that is not empty is refused: inspect-store-file.ts); a pacer store of
   * this format version opens as it is, one of an older version is migrated first (in one
   * transaction). Throws an Error naming the path — leaving the file
   * untouched — when it is not a SQLite database, fails `PRAGMA quick_check`, is another program's
   * database, or has a newer format version; and, before looking at it, when the file or its
   * directory is not writable (SQLite would open a read-only file read-only without a word, and
   * the first write — a status update — would stop pacer).
   */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    checkWritable(path);
    const state = inspectStoreFile(path);
    const db = new Database(path);
    try {
      setPragmas(db, path, options.synchronous ?? 'NORMAL');
      if (state === 'new') initialiseStore(db);
      else if (state !== 'current') migrateStore(db, state.migrateFrom);
      const synchronous = options.synchronous ?? 'NORMAL';
      const guard = new StoreWriteGuard(path, options.minFreeBytes ?? 0, options.freeBytes);
      return new SqliteStore(path, db, guard, synchronous);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Run `fn` in one transaction: the writes it makes (each method's own transaction becomes a
   * savepoint inside it) are durable together when it returns, or — when it throws, or the process
   * dies before it returns — none of them is. The runtime handles each API command this way, so a
   * `kill -9` never leaves half a change (a root group without its run spec, a run spec without its
   * deployment).
   */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Why a change must not be taken now (the file removed or replaced, not writable, too little free
   * space: store-write-guard.ts), or undefined. Asked before each API command, which is refused
   * with 503 while there is a reason, before the core sees it.
   */
  writeRefusal(): string | undefined {
    return this.guard.refusal();
  }

  /**
   * Writes the store file again when it was removed while pacer ran (`rm`, a move elsewhere, its
   * directory removed), so that nothing is lost: SQLite goes on writing to the removed file, which
   * a restart would never see. The open store — every record, those written since the removal
   * included — is copied (`VACUUM INTO`, a consistent snapshot) to a new file beside the path
   * (its directory made again if it was removed, as at start), linked to the path only while
   * nothing else is there, and the store goes on with that file. `mayRestore` is asked first (the
   * runtime: this pacer still holds, or takes back, the store's lock). Returns the bytes of the
   * file written; undefined when the file is where it was, a transaction is open, `mayRestore`
   * says no, or another file took the path meanwhile (the write guard then refuses changes as
   * "replaced"). Throws the system's or SQLite's error when the copy cannot be written (a full
   * disk, no permission): the store is left as it was, still writing to the removed file.
   */
  restoreRemovedFile(mayRestore: () => boolean): number | undefined {
    if (!this.guard.removed() || this.db.inTransaction) return undefined;
    // Its directory made again first (as at start), so that the lock beside it can be taken back.
    mkdirSync(dirname(this.path), { recursive: true });
    if (!mayRestore()) return undefined;
    const copy = `${this.path}.restoring-${process.pid}`;
    try {
      rmSync(copy, { force: true });
      this.db.prepare('VACUUM INTO ?').run(copy);
      if (!linkOnlyIfFree(copy, this.path)) return undefined;
    } finally {
      rmSync(copy, { force: true });
    }
    // Closing the old connection checkpoints into the removed file and deletes, by name, the
    // write-ahead log and shared memory beside the path: done before the new file opens its own.
    this.db.close();
    const db = new Database(this.path);
    setPragmas(db, this.path, this.synchronous);
    this.db = db;
    this.prepare(db);
    this.guard.renew();
    return statSync(this.path).size;
  }

  saveRoot(root: Group): void {
    this.sql.saveRoot.run(encodeRecord('root', root));
  }

  saveRunSpec(spec: RunSpec): void {
    this.sql.saveRunSpec.run(spec.id, encodeRecord('runSpec', spec));
  }

  deleteRunSpec(runSpecId: string): void {
    this.sql.deleteRunSpec.run(runSpecId);
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.sql.saveVersion.run(spec.id, spec.version, encodeRecord('runSpecVersion', spec));
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.sql.deleteVersion.run(runSpecId, version);
  }

  saveRootVersion(root: Group): void {
    this.sql.saveRootVersion.run(root.version, encodeRecord('rootVersion', root));
    this.rootVersions.saved(root);
  }

  deleteRootVersion(version: string): void {
    this.rootVersions.deleted(version);
    this.sql.deleteRootVersion.run(version);
  }

  saveDeployment(deployment: Deployment): void {
    this.sql.saveDeployment.run(deployment.plan.id, encodeRecord('deployment', deployment, this.rootVersions));
  }

  deleteDeployment(deploymentId: string): void {
    this.sql.deleteDeployment.run(deploymentId);
  }

  /** All of them in one transaction: either every record is durable or none is. */
  saveInstances(instances: readonly Instance[]): void {
    if (instances.length > 0) this.saveInstancesTx(instances);
  }

  deleteInstance(instanceId: string): void {
    this.sql.deleteInstance.run(instanceId);
  }

  saveFrameworkId(frameworkId: string): void {
    this.sql.saveFrameworkId.run(frameworkId);
  }

  saveTaskFailure(failure: TaskFailure): void {
    this.sql.saveTaskFailure.run(failure.appId, encodeRecord('taskFailure', failure));
  }

  deleteTaskFailure(runSpecId: string): void {
    this.sql.deleteTaskFailure.run(runSpecId);
  }

  /** Moves the record to the `set_aside` table, with `reason` and the time (set-aside.ts). */
  setAside(record: SetAsideRecord): void {
    if (record.kind === 'rootVersion') this.rootVersions.deleted(record.key);
    moveAside(this.db, record, new Date().toISOString());
  }

  /** Every record set aside so far, oldest first (for operators and tests). */
  setAsideRows(): SetAsideRow[] {
    return setAsideRows(this.db);
  }

  /**
   * Everything stored, decoded into fresh objects by records/load-records.ts, kind by kind in the
   * one load order of every backend (records/record-load-order.ts; records/record-codec.ts: each
   * record's text is parsed, checked against its kind's schema and mapped to the core's model; run
   * specs and groups are read back through the converter by one reader for the whole load,
   * ../run-spec-record.ts). Arrays are in key
   * order (ids ascending; versions by run spec id, then version, and root versions by version —
   * versions are ISO timestamps, so oldest first). A row that fails, or whose record is not the one
   * its key names (a run spec stored under another id, …), is set aside and reported in `setAside`;
   * it never stops the load. Whether a decoded record makes sense is the core's to judge.
   */
  load(): StoredState {
    const state = loadRecords({
      records: (kind) => this.sql.load[kind].all().map((row) => ({ at: KIND_TABLES[kind].at(row), text: row[KIND_TABLES[kind].body] })),
      setAside: (record) => this.setAside(record),
    });
    this.rootVersions.loaded(state.rootVersions);
    return state;
  }

  /** Close the file (checkpointing the WAL into it). The store cannot be used afterwards. */
  close(): void {
    this.db.close();
  }
}

/**
 * Links `from` at `to` unless something is at `to` (false then); a file system without hard links
 * gets a rename, checked just before (its window is the caller's: one pacer per store, the lock).
 */
function linkOnlyIfFree(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
  }
  if (statSync(to, { throwIfNoEntry: false }) !== undefined) return false;
  renameSync(from, to);
  return true;
}

function setPragmas(db: Database.Database, path: string, synchronous: StoreSynchronous): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`store ${path}: could not switch to WAL mode (journal_mode is ${String(mode)})`);
  db.pragma(`synchronous = ${synchronous}`);
}
