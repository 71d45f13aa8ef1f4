import type Database from 'better-sqlite3';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import { KIND_TABLES } from './kind-tables';

/**
 * Every statement the store runs, prepared once when it opens (saveInstances is on the launch hot
 * path: preparing per call would cost more than the insert). `load` holds one statement per kind
 * of record (kind-tables.ts), returning its rows in key order (SQLite's BINARY collation: UTF-8
 * byte order, which is code point order).
 */
export interface StoreStatements {
  readonly saveRoot: Database.Statement<[string]>;
  readonly saveFrameworkId: Database.Statement<[string]>;
  readonly saveRunSpec: Database.Statement<[string, string]>;
  readonly deleteRunSpec: Database.Statement<[string]>;
  readonly saveVersion: Database.Statement<[string, string, string]>;
  readonly deleteVersion: Database.Statement<[string, string]>;
  readonly saveRootVersion: Database.Statement<[string, string]>;
  readonly deleteRootVersion: Database.Statement<[string]>;
  readonly saveDeployment: Database.Statement<[string, string]>;
  readonly deleteDeployment: Database.Statement<[string]>;
  readonly saveInstance: Database.Statement<[string, string]>;
  readonly deleteInstance: Database.Statement<[string]>;
  readonly saveTaskFailure: Database.Statement<[string, string]>;
  readonly deleteTaskFailure: Database.Statement<[string]>;
  readonly load: { readonly [K in StoredRecordKind]: Database.Statement<[], Record<string, unknown>> };
}

/** Prepare {@link StoreStatements} on a database whose tables exist (store-format.ts). */
export function prepareStatements(db: Database.Database): StoreStatements {
  const upsert = (table: string): Database.Statement<[string, string]> =>
    db.prepare(`INSERT INTO ${table} (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body`);
  const remove = (table: string): Database.Statement<[string]> => db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  const load = {} as Record<StoredRecordKind, Database.Statement<[], Record<string, unknown>>>;
  for (const [kind, { table, keys, body }] of Object.entries(KIND_TABLES) as [StoredRecordKind, (typeof KIND_TABLES)[StoredRecordKind]][]) {
    load[kind] = db.prepare(`SELECT ${keys.join(', ')}, ${body} FROM ${table} ORDER BY ${keys.join(', ')}`);
  }
  return {
    saveRoot: db.prepare('INSERT INTO root (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body'),
    saveFrameworkId: db.prepare(
      'INSERT INTO framework (id, framework_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET framework_id = excluded.framework_id',
    ),
    saveRunSpec: upsert('run_specs'),
    deleteRunSpec: remove('run_specs'),
    saveVersion: db.prepare(
      'INSERT INTO run_spec_versions (run_spec_id, version, body) VALUES (?, ?, ?) ' +
        'ON CONFLICT (run_spec_id, version) DO UPDATE SET body = excluded.body',
    ),
    deleteVersion: db.prepare('DELETE FROM run_spec_versions WHERE run_spec_id = ? AND version = ?'),
    saveRootVersion: db.prepare(
      'INSERT INTO root_versions (version, body) VALUES (?, ?) ON CONFLICT (version) DO UPDATE SET body = excluded.body',
    ),
    deleteRootVersion: db.prepare('DELETE FROM root_versions WHERE version = ?'),
    saveDeployment: upsert('deployments'),
    deleteDeployment: remove('deployments'),
    saveInstance: upsert('instances'),
    deleteInstance: remove('instances'),
    saveTaskFailure: upsert('task_failures'),
    deleteTaskFailure: remove('task_failures'),
    load,
  };
}
