import type Database from 'better-sqlite3';

/** A stored row: its key columns and the record's JSON text (records/record-codec.ts). */
export interface BodyRow {
  readonly id: string;
  readonly body: string;
}

export interface VersionRow {
  readonly run_spec_id: string;
  readonly version: string;
  readonly body: string;
}

/**
 * Every statement the store runs, prepared once when it opens (saveInstances is on the launch hot
 * path: preparing per call would cost more than the insert). `load*` statements return rows in
 * key order (SQLite's BINARY collation: UTF-8 byte order, which is code point order).
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
  readonly loadRoot: Database.Statement<[], { body: string }>;
  readonly loadFrameworkId: Database.Statement<[], { framework_id: string }>;
  readonly loadRunSpecs: Database.Statement<[], BodyRow>;
  readonly loadVersions: Database.Statement<[], VersionRow>;
  readonly loadRootVersions: Database.Statement<[], { body: string; version: string }>;
  readonly loadDeployments: Database.Statement<[], BodyRow>;
  readonly loadInstances: Database.Statement<[], BodyRow>;
}

/** Prepare {@link StoreStatements} on a database whose tables exist (store-format.ts). */
export function prepareStatements(db: Database.Database): StoreStatements {
  const upsert = (table: string): Database.Statement<[string, string]> =>
    db.prepare(`INSERT INTO ${table} (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body`);
  const remove = (table: string): Database.Statement<[string]> => db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  const all = (table: string): Database.Statement<[], BodyRow> => db.prepare(`SELECT id, body FROM ${table} ORDER BY id`);
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
    loadRoot: db.prepare('SELECT body FROM root WHERE id = 1'),
    loadFrameworkId: db.prepare('SELECT framework_id FROM framework WHERE id = 1'),
    loadRunSpecs: all('run_specs'),
    loadVersions: db.prepare('SELECT run_spec_id, version, body FROM run_spec_versions ORDER BY run_spec_id, version'),
    loadRootVersions: db.prepare('SELECT version, body FROM root_versions ORDER BY version'),
    loadDeployments: all('deployments'),
    loadInstances: all('instances'),
  };
}
