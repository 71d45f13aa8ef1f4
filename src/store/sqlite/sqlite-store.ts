import Database from 'better-sqlite3';
import type { Deployment } from '../../scheduler/deployments/deployment';
import type { Group } from '../../scheduler/groups/group';
import type { Instance } from '../../scheduler/model/instance';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { Store, StoredState } from '../../scheduler/ports/store';
import { decode, encode } from './codec';
import { inspectStoreFile } from './inspect-store-file';
import { initialiseStore } from './store-format';
import { prepareStatements, type StoreStatements } from './store-statements';

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
}

/**
 * The embedded durable store (issue 5): one SQLite file through better-sqlite3, in WAL mode.
 * Every write is one synchronous transaction — when a method returns its record is durable (see
 * {@link SqliteStoreOptions.synchronous} for how durable) — which is what lets the core persist an
 * instance before it accepts an offer. Objects are encoded (copied) before the call returns, so the
 * core may keep mutating them. Statements are prepared once, at open.
 *
 * Open it with {@link SqliteStore.open}; a file that is not a pacer store, is corrupt, or was
 * written by a newer pacer is refused without being modified.
 */
export class SqliteStore implements Store {
  private readonly saveInstancesTx: (instances: readonly Instance[]) => void;

  private constructor(
    /** The file this store writes (for error messages). */
    readonly path: string,
    private readonly db: Database.Database,
    private readonly sql: StoreStatements,
  ) {
    this.saveInstancesTx = db.transaction((instances: readonly Instance[]) => {
      for (const inst of instances) sql.saveInstance.run(inst.instanceId, encode(inst));
    });
  }

  /**
   * Open (or create) the store at `path`. A missing or empty file is initialised; a pacer store of
   * this format version opens as it is. Throws an Error naming the path — leaving the file
   * untouched — when it is not a SQLite database, fails `PRAGMA quick_check`, is another program's
   * database, or has a newer format version.
   */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    const state = inspectStoreFile(path);
    const db = new Database(path);
    try {
      setPragmas(db, path, options.synchronous ?? 'NORMAL');
      if (state === 'new') initialiseStore(db);
      return new SqliteStore(path, db, prepareStatements(db));
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

  saveRoot(root: Group): void {
    this.sql.saveRoot.run(encode(root));
  }

  saveRunSpec(spec: RunSpec): void {
    this.sql.saveRunSpec.run(spec.id, encode(spec));
  }

  deleteRunSpec(runSpecId: string): void {
    this.sql.deleteRunSpec.run(runSpecId);
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.sql.saveVersion.run(spec.id, spec.version, encode(spec));
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.sql.deleteVersion.run(runSpecId, version);
  }

  saveRootVersion(root: Group): void {
    this.sql.saveRootVersion.run(root.version, encode(root));
  }

  deleteRootVersion(version: string): void {
    this.sql.deleteRootVersion.run(version);
  }

  saveDeployment(deployment: Deployment): void {
    this.sql.saveDeployment.run(deployment.plan.id, encode(deployment));
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

  /**
   * Everything stored, decoded into fresh objects. Arrays are in key order (ids ascending;
   * versions by run spec id, then version, and root versions by version — versions are ISO
   * timestamps, so oldest first). A row that does not decode throws an Error naming the path,
   * table and key.
   */
  load(): StoredState {
    const root = this.sql.loadRoot.get();
    const frameworkId = this.sql.loadFrameworkId.get();
    return {
      ...(root === undefined ? {} : { root: this.decodeRow<Group>('root', '1', root.body) }),
      runSpecs: this.sql.loadRunSpecs.all().map((r) => this.decodeRow<RunSpec>('run_specs', r.id, r.body)),
      versions: this.sql.loadVersions.all().map((r) => this.decodeRow<RunSpec>('run_spec_versions', `${r.run_spec_id} ${r.version}`, r.body)),
      rootVersions: this.sql.loadRootVersions.all().map((r) => this.decodeRow<Group>('root_versions', r.version, r.body)),
      deployments: this.sql.loadDeployments.all().map((r) => this.decodeRow<Deployment>('deployments', r.id, r.body)),
      instances: this.sql.loadInstances.all().map((r) => this.decodeRow<Instance>('instances', r.id, r.body)),
      ...(frameworkId === undefined ? {} : { frameworkId: frameworkId.framework_id }),
    };
  }

  /** Close the file (checkpointing the WAL into it). The store cannot be used afterwards. */
  close(): void {
    this.db.close();
  }

  /** The codec restores exactly what was encoded from a `T`; the cast names what the table holds. */
  private decodeRow<T>(table: string, key: string, body: string): T {
    try {
      return decode(body) as T;
    } catch (err) {
      const reason = (err as Error).message;
      throw new Error(`store ${this.path}: row ${key} of ${table} does not decode (${reason})`, { cause: err });
    }
  }
}

function setPragmas(db: Database.Database, path: string, synchronous: StoreSynchronous): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`store ${path}: could not switch to WAL mode (journal_mode is ${String(mode)})`);
  db.pragma(`synchronous = ${synchronous}`);
}
