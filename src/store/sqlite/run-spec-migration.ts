import type Database from 'better-sqlite3';
import type { Group } from '../../scheduler/groups/group';
import type { AppSpec } from '../../scheduler/model/app';
import type { PodSpec } from '../../scheduler/model/pod';
import type { RunSpec } from '../../scheduler/model/run-spec';
import { groupToRecord, RunSpecRecordReader, runSpecToRecord } from '../run-spec-record';
import { decode, encode } from './codec';

/**
 * Format 2 → 3 (issue 12, R1): run specs and groups stop being the core's live objects and become
 * Marathon's JSON (run-spec-record.ts). A format 2 run spec held its Marathon JSON, every default
 * filled, in a field named by {@link LEGACY_WIRE_FIELD}, next to the typed fields; that JSON (with
 * the record's `version` and `versionInfo`) is converted into today's model and written as its
 * record. Roots, root versions and the two roots of each running deployment are rewritten the same
 * way, app by app. A row that does not convert is left as it was: the next load sets it aside with
 * the reason (a stored record never stops a start, issue 11).
 */
export function migrateRunSpecsToMarathonJson(db: Database.Database): void {
  const reader = new RunSpecRecordReader();
  const runSpec = (old: unknown): RunSpec | undefined => legacyRunSpec(reader, old);
  const group = (old: unknown): Group | undefined => legacyGroup(runSpec, old);
  rewrite(db, 'SELECT id AS k1, NULL AS k2, body FROM run_specs', 'UPDATE run_specs SET body = ? WHERE id = ?', (old) => recordOf(runSpec(old)));
  rewrite(
    db, 'SELECT run_spec_id AS k1, version AS k2, body FROM run_spec_versions', 'UPDATE run_spec_versions SET body = ? WHERE run_spec_id = ? AND version = ?',
    (old) => recordOf(runSpec(old)),
  );
  rewrite(db, 'SELECT id AS k1, NULL AS k2, body FROM root', 'UPDATE root SET body = ? WHERE id = ?', (old) => groupRecordOf(group(old)));
  rewrite(db, 'SELECT version AS k1, NULL AS k2, body FROM root_versions', 'UPDATE root_versions SET body = ? WHERE version = ?', (old) => groupRecordOf(group(old)));
  rewrite(db, 'SELECT id AS k1, NULL AS k2, body FROM deployments', 'UPDATE deployments SET body = ? WHERE id = ?', (old) => {
    if (!isObject(old)) return undefined;
    const original = group(old.original);
    const target = group(old.target);
    return original === undefined || target === undefined ? undefined : { ...old, original: groupToRecord(original), target: groupToRecord(target) };
  });
}

/** The field of a format 2 run spec that held its Marathon JSON (removed from the model in format 3). */
export const LEGACY_WIRE_FIELD = 'definition';

interface Row {
  readonly k1: string | number;
  readonly k2: string | null;
  readonly body: string;
}

/** Every row of `select` whose body `migrate` turns into a new record gets that record as its body. */
function rewrite(db: Database.Database, select: string, update: string, migrate: (old: unknown) => unknown): void {
  const rows = db.prepare<[], Row>(select).all();
  const write = db.prepare(update);
  for (const row of rows) {
    let old: unknown;
    try {
      old = decode(row.body);
    } catch {
      continue;
    }
    const record = migrate(old);
    if (record === undefined) continue;
    if (row.k2 === null) write.run(encode(record), row.k1);
    else write.run(encode(record), row.k1, row.k2);
  }
}

function recordOf(spec: RunSpec | undefined): unknown {
  return spec === undefined ? undefined : runSpecToRecord(spec);
}

function groupRecordOf(group: Group | undefined): unknown {
  return group === undefined ? undefined : groupToRecord(group);
}

/** A format 2 run spec (the live object with its Marathon JSON) as today's model. */
function legacyRunSpec(reader: RunSpecRecordReader, old: unknown): RunSpec | undefined {
  if (!isObject(old) || (old.kind !== 'app' && old.kind !== 'pod')) return undefined;
  const json = old[LEGACY_WIRE_FIELD];
  if (!isObject(json) || typeof old.version !== 'string') return undefined;
  const stamped = { ...json, version: old.version, versionInfo: old.versionInfo };
  const result = reader.runSpec(old.kind === 'app' ? { kind: 'app', app: stamped } : { kind: 'pod', pod: stamped });
  return result.ok ? result.value : undefined;
}

/** A format 2 group (Maps of live run specs) as today's model; undefined when any part does not convert. */
function legacyGroup(runSpec: (old: unknown) => RunSpec | undefined, old: unknown): Group | undefined {
  if (!isObject(old) || typeof old.id !== 'string' || typeof old.version !== 'string') return undefined;
  if (!(old.apps instanceof Map) || !(old.pods instanceof Map) || !(old.groups instanceof Map)) return undefined;
  const apps = new Map<string, AppSpec>();
  const pods = new Map<string, PodSpec>();
  const groups = new Map<string, Group>();
  for (const value of old.apps.values()) {
    const spec = runSpec(value);
    if (spec?.kind !== 'app') return undefined;
    apps.set(spec.id, spec);
  }
  for (const value of old.pods.values()) {
    const spec = runSpec(value);
    if (spec?.kind !== 'pod') return undefined;
    pods.set(spec.id, spec);
  }
  for (const value of old.groups.values()) {
    const child = legacyGroup(runSpec, value);
    if (child === undefined) return undefined;
    groups.set(child.id, child);
  }
  const dependencies = Array.isArray(old.dependencies) ? old.dependencies.filter((d): d is string => typeof d === 'string') : [];
  return { id: old.id, apps, pods, groups, dependencies, enforceRole: old.enforceRole === true, version: old.version };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}
