import type Database from 'better-sqlite3';
import { STORE_FORMAT_VERSION } from '../records/store-format-version';

export { STORE_FORMAT_VERSION } from '../records/store-format-version';

/**
 * The on-disk format of the embedded store (issue 5, durable state).
 *
 * The file is marked twice: `PRAGMA application_id` (SQLite's own slot for "which program's file
 * is this", 4 bytes in the header) holds {@link PACER_APPLICATION_ID}, and `PRAGMA user_version`
 * holds {@link STORE_FORMAT_VERSION}. A file with another application id is not ours; a file with
 * a higher format version was written by a newer pacer and is refused (it was never modified).
 * The version is the store's format version (records/store-format-version.ts): bump it whenever a
 * table or a record changes, with a migration (records/record-migrations.ts) that runs in the same
 * transaction as the `user_version` bump: Marathon's
 * half-done storage migrations left clusters unable to start (marathon-reference.md section 5,
 * item 13), whereas a SQLite transaction moves the file to the new version whole or not at all.
 *
 * The tables hold Marathon's persisted categories (marathon-reference.md section 2, "Persistence in
 * ZooKeeper": apps/pods, group, instance, deployment, framework-id, taskFailures) plus the root
 * group's stored versions, keyed by what the port keys them by; the root group and the framework id are single
 * rows. Every body column holds a record's JSON text as `records/record-codec.ts` writes it (the
 * record types and the format version: `records/`, docs/architecture.md "Store format"). There
 * is no node-size limit to hit (Marathon's 1 MB ZooKeeper nodes, section 5, item 5).
 */

/** "pacr" in ASCII, as a signed 32-bit integer (SQLite's application_id is a signed int). */
export const PACER_APPLICATION_ID = 0x70616372;

const SCHEMA_V1 = `
  CREATE TABLE root (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL
  );
  CREATE TABLE framework (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    framework_id TEXT NOT NULL
  );
  CREATE TABLE run_specs (
    id TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE run_spec_versions (
    run_spec_id TEXT NOT NULL,
    version TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_spec_id, version)
  ) WITHOUT ROWID;
  CREATE TABLE root_versions (
    version TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE deployments (
    id TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE instances (
    id TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/** The table of store format 7 (each run spec's last task failure, by run spec id); a migration from an older format makes it. */
export const TASK_FAILURES_TABLE = `
  CREATE TABLE IF NOT EXISTS task_failures (
    id TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/**
 * The tables every format of the store has: a pacer store without one of them is refused
 * (inspect-store-file.ts). `task_failures` (format 7) is not among them: the migration of an older
 * file makes it.
 */
export const STORE_TABLES: readonly string[] = ['root', 'framework', 'run_specs', 'run_spec_versions', 'root_versions', 'deployments', 'instances'];

/**
 * Create the tables and stamp the markers, in one transaction, on a database that has none
 * (checked by `inspectStoreFile` before the file was opened for writing).
 */
export function initialiseStore(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SCHEMA_V1);
    db.exec(TASK_FAILURES_TABLE);
    db.pragma(`application_id = ${PACER_APPLICATION_ID}`);
    db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
  })();
}
