import type { StoredRecordKind } from '../../scheduler/ports/store';
import type { RecordKey } from '../records/record-codec';

/** Where the SQLite store keeps one kind of record: its table, key columns and text column. */
export interface KindTable {
  readonly table: string;
  /** The key columns, in the order rows are loaded by (`ORDER BY`). */
  readonly keys: readonly string[];
  /** The column holding the record's text. */
  readonly body: string;
  /** The record key a row of this table stands for. */
  readonly at: (row: Readonly<Record<string, unknown>>) => RecordKey;
  /** The key columns' values of the row a record key stands for (in the order of `keys`). */
  readonly row: (at: RecordKey) => unknown[];
}

const byId = (table: string): KindTable => ({ table, keys: ['id'], body: 'body', at: (row) => ({ key: String(row.id) }), row: (at) => [at.key] });
/** The root and the framework id are single rows (`id = 1`), stored under the key `/`. */
const single = (table: string, body: string): KindTable => ({ table, keys: ['id'], body, at: () => ({ key: '/' }), row: () => [1] });

/**
 * The table of each kind of record (store-format.ts makes them), for loading, migrating and
 * setting aside (set-aside.ts). The order they are loaded and
 * migrated in is not here: it is the one {@link RECORD_LOAD_ORDER} of every backend
 * (records/record-load-order.ts).
 */
export const KIND_TABLES: { readonly [K in StoredRecordKind]: KindTable } = {
  frameworkId: single('framework', 'framework_id'),
  runSpec: byId('run_specs'),
  runSpecVersion: {
    table: 'run_spec_versions', keys: ['run_spec_id', 'version'], body: 'body',
    at: (row) => ({ key: String(row.run_spec_id), version: String(row.version) }),
    row: (at) => [at.key, at.version ?? ''],
  },
  root: single('root', 'body'),
  rootVersion: { table: 'root_versions', keys: ['version'], body: 'body', at: (row) => ({ key: String(row.version) }), row: (at) => [at.key] },
  deployment: byId('deployments'),
  instance: byId('instances'),
  // Store format 7 (store-format.ts makes it in a new file, store-migrations.ts in an older one).
  taskFailure: byId('task_failures'),
};
