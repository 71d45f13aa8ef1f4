import type Database from 'better-sqlite3';
import type { SetAsideRecord, StoredRecordKind } from '../../scheduler/ports/store';
import { KIND_TABLES } from './kind-tables';

/**
 * Where records that could not be loaded go (issue 11): out of the tables pacer loads, into
 * `set_aside`, with why and when, for an operator to inspect (`sqlite3 .pacer/pacer.db 'SELECT *
 * FROM set_aside'`) — never deleted silently. The table is created the first time something is set
 * aside; a pacer that does not know it ignores it, so the store's format version stays 1.
 * `body` keeps the row's stored value exactly (the codec's text, or whatever a damaged row holds).
 */
const CREATE_SET_ASIDE = `
  CREATE TABLE IF NOT EXISTS set_aside (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    version TEXT,
    body,
    reason TEXT NOT NULL,
    set_aside_at TEXT NOT NULL
  )`;

/**
 * Moves the row `record` names (its kind's table: kind-tables.ts) into `set_aside` (one transaction: the row is either moved or left
 * where it was). A row that is not there is ignored.
 */
export function moveAside(db: Database.Database, record: SetAsideRecord, atIso: string): void {
  const { table, keys, body, row: keyValues } = KIND_TABLES[record.kind];
  const where = keys.map((k) => `${k} = ?`).join(' AND ');
  db.exec(CREATE_SET_ASIDE);
  db.transaction(() => {
    const params = keyValues(record);
    const row = db.prepare(`SELECT ${body} AS value FROM ${table} WHERE ${where}`).get(...params) as { value: unknown } | undefined;
    if (row === undefined) return;
    db.prepare('INSERT INTO set_aside (kind, key, version, body, reason, set_aside_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(record.kind, record.key, record.version ?? null, row.value, record.reason, atIso);
    db.prepare(`DELETE FROM ${table} WHERE ${where}`).run(...params);
  })();
}

/** A record set aside earlier, as `set_aside` keeps it. */
export interface SetAsideRow extends SetAsideRecord {
  readonly body: unknown;
  readonly setAsideAt: string;
}

/** Everything set aside so far, oldest first (empty when nothing ever was). */
export function setAsideRows(db: Database.Database): SetAsideRow[] {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'set_aside'").get();
  if (exists === undefined) return [];
  const rows = db.prepare('SELECT kind, key, version, body, reason, set_aside_at FROM set_aside ORDER BY seq').all() as {
    kind: StoredRecordKind; key: string; version: string | null; body: unknown; reason: string; set_aside_at: string;
  }[];
  return rows.map((r) => ({
    kind: r.kind, key: r.key, ...(r.version === null ? {} : { version: r.version }), body: r.body, reason: r.reason, setAsideAt: r.set_aside_at,
  }));
}
