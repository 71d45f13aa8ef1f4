import type Database from 'better-sqlite3';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import { decodeRecord } from '../records/record-codec';
import { migrateRecordText } from '../records/record-migrations';
import { RunSpecRecordReader } from '../run-spec-record';
import { STORE_FORMAT_VERSION } from '../records/store-format-version';

export { OLDEST_MIGRATABLE_VERSION } from '../records/store-format-version';

/**
 * The table of each kind of record, its key columns and the column holding the record's text, in
 * the order they are migrated: run spec versions before the roots that refer to them (format 4).
 */
const TABLES: readonly { readonly kind: StoredRecordKind; readonly table: string; readonly keys: readonly string[] }[] = [
  { kind: 'runSpec', table: 'run_specs', keys: ['id'] },
  { kind: 'runSpecVersion', table: 'run_spec_versions', keys: ['run_spec_id', 'version'] },
  { kind: 'root', table: 'root', keys: ['id'] },
  { kind: 'rootVersion', table: 'root_versions', keys: ['version'] },
  { kind: 'deployment', table: 'deployments', keys: ['id'] },
  { kind: 'instance', table: 'instances', keys: ['id'] },
];

/**
 * Brings a store of an older format version up to {@link STORE_FORMAT_VERSION}: every record goes
 * through the store's record migrations (records/record-migrations.ts, shared with the ZooKeeper
 * store), in one transaction with the `user_version` bump (store-format.ts: the file moves to the
 * new version whole or not at all). A row that is not JSON is left as it is (load sets it aside).
 * Run spec versions go first: the roots' migration to format 4 refers to those that decode.
 */
export function migrateStore(db: Database.Database, fromVersion: number): void {
  db.transaction(() => {
    const reader = new RunSpecRecordReader();
    for (const { kind, table, keys } of TABLES) {
      const update = db.prepare(`UPDATE ${table} SET body = ? WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`);
      const rows = db.prepare(`SELECT ${keys.join(', ')}, body FROM ${table}`).all() as Record<string, unknown>[];
      for (const row of rows) {
        if (typeof row.body !== 'string') continue;
        const migrated = migrateRecordText(kind, row.body, fromVersion, reader);
        if (migrated !== row.body) update.run(migrated, ...keys.map((k) => row[k]));
        // Kept in the reader for the roots that refer to it (record-codec.ts); a failure is load's to set aside.
        if (kind === 'runSpecVersion') decodeRecord(kind, migrated, { key: String(row.run_spec_id), version: String(row.version) }, reader);
      }
    }
    db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
  })();
}
