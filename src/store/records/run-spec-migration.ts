import type { Group } from '../../scheduler/index';
import type { AppSpec } from '../../scheduler/model/app';
import type { PodSpec } from '../../scheduler/model/pod';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import { groupToRecord, type RunSpecRecordReader, runSpecToRecord } from '../run-spec-record';
import { decodeTree, type JsonValue } from '../sqlite/codec';

/**
 * Format 2 → 3 (issue 12, R1), one record at a time: run specs and groups stop being the codec's
 * tree of the core's live objects and become Marathon's JSON (../run-spec-record.ts). A format 2
 * run spec held its Marathon JSON, every default filled, in a field named by
 * {@link LEGACY_WIRE_FIELD}, next to the typed fields; that JSON (with the record's `version` and
 * `versionInfo`) is converted into today's model and written as its record. Roots, root versions
 * and the two roots of each running deployment are rewritten the same way, app by app; instances
 * and the framework id do not change.
 *
 * A record that does not convert is returned as it was: the next load sets it aside with the
 * reason (a stored record never stops a start, issue 11). A record already in format 3 does not
 * convert either, so the step is idempotent (the ZooKeeper store may run it twice).
 */
export function runSpecsToMarathonJson(kind: StoredRecordKind, record: JsonValue, reader: RunSpecRecordReader): JsonValue {
  const runSpec = (old: unknown): RunSpec | undefined => legacyRunSpec(reader, old);
  switch (kind) {
    case 'runSpec':
    case 'runSpecVersion': {
      const spec = runSpec(treeValue(record));
      return spec === undefined ? record : (runSpecToRecord(spec) as unknown as JsonValue);
    }
    case 'root':
    case 'rootVersion':
      return groupRecordOr(record, runSpec);
    case 'deployment': {
      if (!isObject(record)) return record;
      const original = groupRecordOr(record.original as JsonValue, runSpec);
      const target = groupRecordOr(record.target as JsonValue, runSpec);
      return original === record.original || target === record.target ? record : { ...record, original, target };
    }
    default:
      return record;
  }
}

/** The field of a format 2 run spec that held its Marathon JSON (removed from the model in format 3). */
export const LEGACY_WIRE_FIELD = 'definition';

/** The format 3 record of a format 2 group tree, or `tree` itself when it does not convert. */
function groupRecordOr(tree: JsonValue, runSpec: (old: unknown) => RunSpec | undefined): JsonValue {
  const group = legacyGroup(runSpec, treeValue(tree));
  return group === undefined ? tree : (groupToRecord(group) as unknown as JsonValue);
}

/** The value a codec tree stands for, or undefined when its tags are malformed. */
function treeValue(tree: JsonValue): unknown {
  try {
    return decodeTree(tree);
  } catch {
    return undefined;
  }
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
