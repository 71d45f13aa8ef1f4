import type Database from 'better-sqlite3';
import { decodeRecord } from '../records/record-codec';
import { RECORD_LOAD_ORDER } from '../records/record-load-order';
import { migrateRecordText } from '../records/record-migrations';
import { RunSpecRecordReader } from '../run-spec-record';
import { STORE_FORMAT_VERSION } from '../records/store-format-version';
import { KIND_TABLES } from './kind-tables';
import { TASK_FAILURES_TABLE } from './store-format';

export { OLDEST_MIGRATABLE_VERSION } from '../records/store-format-version';

/**
 * Brings a store of an older format version up to {@link STORE_FORMAT_VERSION}: every record goes
 * through the store's record migrations (records/record-migrations.ts, shared with the ZooKeeper
 * store), in one transaction with the `user_version` bump (store-format.ts: the file moves to the
 * new version whole or not at all), after making the tables of newer formats (format 7's
 * `task_failures`). A row that is not JSON is left as it is (load sets it aside).
 * Tables go in the one load order of every backend (records/record-load-order.ts): run spec
 * versions before the roots and deployments, whose migrations to formats 4 and 6 refer to those
 * that decode. The framework id is not JSON and never migrates.
 */
export function migrateStore(db: Database.Database, fromVersion: number): void {
  db.transaction(() => {
    db.exec(TASK_FAILURES_TABLE);
    const reader = new RunSpecRecordReader();
    for (const kind of RECORD_LOAD_ORDER) {
      if (kind === 'frameworkId') continue;
      const { table, keys, body, at } = KIND_TABLES[kind];
      const update = db.prepare(`UPDATE ${table} SET ${body} = ? WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`);
      const rows = db.prepare(`SELECT ${keys.join(', ')}, ${body} FROM ${table}`).all() as Record<string, unknown>[];
      for (const row of rows) {
        const text = row[body];
        if (typeof text !== 'string') continue;
        const migrated = migrateRecordText(kind, text, fromVersion, reader);
        if (migrated !== text) update.run(migrated, ...keys.map((k) => row[k]));
        // Kept in the reader for the roots that refer to it (record-codec.ts); a failure is load's to set aside.
        if (kind === 'runSpecVersion') decodeRecord(kind, migrated, at(row), reader);
      }
    }
    db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
  })();
}
