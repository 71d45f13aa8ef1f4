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
}

const byId = (table: string): KindTable => ({ table, keys: ['id'], body: 'body', at: (row) => ({ key: String(row.id) }) });
/** The root and the framework id are single rows (`id = 1`), stored under the key `/`. */
const single = (table: string, body: string): KindTable => ({ table, keys: ['id'], body, at: () => ({ key: '/' }) });

/**
 * The table of each kind of record (store-format.ts makes them). The order they are loaded and
 * migrated in is not here: it is the one {@link RECORD_LOAD_ORDER} of every backend
 * (records/record-load-order.ts).
 */
export const KIND_TABLES: { readonly [K in StoredRecordKind]: KindTable } = {
  frameworkId: single('framework', 'framework_id'),
  runSpec: byId('run_specs'),
  runSpecVersion: {
    table: 'run_spec_versions', keys: ['run_spec_id', 'version'], body: 'body',
    at: (row) => ({ key: String(row.run_spec_id), version: String(row.version) }),
  },
  root: single('root', 'body'),
  rootVersion: { table: 'root_versions', keys: ['version'], body: 'body', at: (row) => ({ key: String(row.version) }) },
  deployment: byId('deployments'),
  instance: byId('instances'),
};
