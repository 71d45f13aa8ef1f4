import Database from 'better-sqlite3';
import type { StoredRecordKind, StoredState } from '../../src/scheduler/ports/store';
import { encodeRecord, recordKeyOf, type RecordValues } from '../../src/store/records/record-codec';
import type { JsonValue } from '../../src/store/sqlite/codec';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { StoredRootVersions } from '../../src/store/records/stored-root-versions';
import { Instance } from '../../src/scheduler/model/instance';

/**
 * A store's records as one JSON document (test/fixtures/store/format-N.json): the format version
 * and every record with what it is stored under and its stored form (a JSON record, or the
 * framework id's text). Backend-neutral: the fixture tests write it into a fresh SQLite file and
 * a fresh ZooKeeper store exactly as stored, then load them through the Store port.
 */
export interface StoreDump {
  readonly format: number;
  readonly records: readonly DumpRecord[];
}

/** One record of a {@link StoreDump}. */
export interface DumpRecord {
  readonly kind: StoredRecordKind;
  readonly key: string;
  readonly version?: string;
  readonly record: JsonValue;
}

/** The stored text of a dump record (what the backend keeps). */
export function recordText(r: DumpRecord): string {
  return r.kind === 'frameworkId' ? String(r.record) : JSON.stringify(r.record);
}

/** The dump of `state` in the current format, records in load() order. */
export function dumpOf(state: StoredState, format: number): StoreDump {
  const records: DumpRecord[] = [];
  // As a store that loaded `state` writes a deployment: each root by version where it is one of these root versions (format 8).
  const rootVersions = new StoredRootVersions();
  rootVersions.loaded(state.rootVersions);
  const add = <K extends StoredRecordKind>(kind: K, value: RecordValues[K]): void => {
    const text = encodeRecord(kind, value, rootVersions);
    records.push({ kind, ...recordKeyOf(kind, value), record: kind === 'frameworkId' ? text : JSON.parse(text) as JsonValue });
  };
  if (state.root !== undefined) add('root', state.root);
  for (const s of state.runSpecs) add('runSpec', s);
  for (const s of state.versions) add('runSpecVersion', s);
  for (const r of state.rootVersions) add('rootVersion', r);
  for (const d of state.deployments) add('deployment', d);
  for (const i of state.instances) add('instance', Instance.from(i));
  if (state.frameworkId !== undefined) add('frameworkId', state.frameworkId);
  for (const f of state.taskFailures ?? []) add('taskFailure', f);
  return { format, records };
}

/** Rows as the SQLite store's tables hold them (store-format.ts), for writing a dump byte for byte. */
const INSERTS: Readonly<Record<StoredRecordKind, (r: DumpRecord) => [string, unknown[]]>> = {
  root: (r) => ['INSERT INTO root (id, body) VALUES (1, ?)', [recordText(r)]],
  frameworkId: (r) => ['INSERT INTO framework (id, framework_id) VALUES (1, ?)', [recordText(r)]],
  runSpec: (r) => ['INSERT INTO run_specs (id, body) VALUES (?, ?)', [r.key, recordText(r)]],
  runSpecVersion: (r) => ['INSERT INTO run_spec_versions (run_spec_id, version, body) VALUES (?, ?, ?)', [r.key, r.version, recordText(r)]],
  rootVersion: (r) => ['INSERT INTO root_versions (version, body) VALUES (?, ?)', [r.key, recordText(r)]],
  deployment: (r) => ['INSERT INTO deployments (id, body) VALUES (?, ?)', [r.key, recordText(r)]],
  instance: (r) => ['INSERT INTO instances (id, body) VALUES (?, ?)', [r.key, recordText(r)]],
  taskFailure: (r) => ['INSERT INTO task_failures (id, body) VALUES (?, ?)', [r.key, recordText(r)]],
};

/** A new SQLite store file at `path` holding exactly the dump's records, stamped with the dump's format. */
export function writeDumpToSqlite(dump: StoreDump, path: string): void {
  SqliteStore.open(path).close();
  const db = new Database(path);
  try {
    db.transaction(() => {
      for (const r of dump.records) {
        const [sql, params] = INSERTS[r.kind](r);
        db.prepare(sql).run(...params);
      }
      db.pragma(`user_version = ${dump.format}`);
    })();
  } finally {
    db.close();
  }
}
