import type { StoredRecordKind } from '../../scheduler/ports/store';

/**
 * Every kind of stored record, in the one order every backend loads, decodes and migrates them
 * (SQLite: sqlite-store.ts `load`, store-migrations.ts; ZooKeeper: zk-record-reader.ts, zk-open.ts,
 * and the znodes of zk-layout.ts; the simulator's record-memory-store.ts), through
 * {@link loadRecords} (load-records.ts). The rule it holds: a record that refers to others loads
 * after them. Run spec versions go before the roots and root versions (store format 4) and the
 * deployments (format 6) that hold their apps and pods as `{id, version}` references: decoding a
 * run spec version keeps it in the load's reader, where the references resolve
 * (record-codec.ts). Changing the order changes no stored byte; only this list says it.
 */
export const RECORD_LOAD_ORDER = [
  'frameworkId', 'runSpec', 'runSpecVersion', 'root', 'rootVersion', 'deployment', 'instance', 'taskFailure',
] as const satisfies readonly StoredRecordKind[];

/** A compile error here means a kind of record that {@link RECORD_LOAD_ORDER} does not name. */
const EVERY_KIND_HAS_ITS_PLACE: Exclude<StoredRecordKind, (typeof RECORD_LOAD_ORDER)[number]> extends never ? true : never = true;
void EVERY_KIND_HAS_ITS_PLACE;
