import type Database from 'better-sqlite3';
import { AGENT_PROTOCOL_ALIASES } from '../../scheduler/model/health-check';
import { migrateRunSpecsToMarathonJson } from './run-spec-migration';
import { STORE_FORMAT_VERSION } from './store-format';

/** The lowest format version a migration starts from (version 1 is the first pacer wrote). */
export const OLDEST_MIGRATABLE_VERSION = 1;

/** Tables whose body column holds the codec's JSON text of run specs, groups, deployments or instances. */
const BODY_TABLES = ['root', 'run_specs', 'run_spec_versions', 'root_versions', 'deployments', 'instances'] as const;

/**
 * Brings a store of an older format version up to {@link STORE_FORMAT_VERSION}, in one
 * transaction with the `user_version` bump (store-format.ts: the file moves to the new version
 * whole or not at all).
 *
 * 1 → 2: health check protocols are stored with Marathon's names. Version 1 wrote the agent-run
 * protocols as `AGENT_HTTP`, `AGENT_HTTPS`, `AGENT_TCP` (in the run spec, its `wire` and its
 * `definition`); they become `MESOS_HTTP`, `MESOS_HTTPS`, `MESOS_TCP`. The rewrite matches the
 * exact JSON member `"protocol":"AGENT_…"` as the codec writes it (no spaces; a string value that
 * merely contains this text has its quotes escaped and is left alone).
 *
 * 2 → 3: run specs and groups are stored as Marathon's JSON (run-spec-migration.ts).
 */
export function migrateStore(db: Database.Database, fromVersion: number): void {
  db.transaction(() => {
    if (fromVersion < 2) renameAgentProtocols(db);
    if (fromVersion < 3) migrateRunSpecsToMarathonJson(db);
    db.pragma(`user_version = ${STORE_FORMAT_VERSION}`);
  })();
}

function renameAgentProtocols(db: Database.Database): void {
  let body = 'body';
  for (const [legacy, name] of Object.entries(AGENT_PROTOCOL_ALIASES)) {
    body = `replace(${body}, '"protocol":"${legacy}"', '"protocol":"${name}"')`;
  }
  for (const table of BODY_TABLES) db.exec(`UPDATE ${table} SET body = ${body} WHERE body LIKE '%"protocol":"AGENT_%'`);
}
