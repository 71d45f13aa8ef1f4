import { appFromWire } from '../marathon/convert/app-from-wire';
import type { ConvertResult } from '../marathon/convert/convert-result';
import { podFromWire } from '../marathon/convert/pod-from-wire';
import { appDefinitionJson } from '../marathon/render/app-definition-json';
import { podDefinitionJson } from '../marathon/render/pod-definition-json';
import type { Group } from '../scheduler/index';
import type { AppSpec } from '../scheduler/model/app';
import type { PodSpec } from '../scheduler/model/pod';
import type { RunSpec, VersionInfo } from '../scheduler/model/run-spec';

/**
 * How the store keeps run specs and groups (issue 12, R1): as Marathon's JSON, rendered from the
 * model by src/marathon/render and read back through the converter (src/marathon/convert), never
 * as the core's live objects. A field renamed in TypeScript therefore does not change what is on
 * disk, and a record an older pacer wrote is read with the same rules as an API request.
 *
 * | what       | record                                                                        |
 * | ---------- | ----------------------------------------------------------------------------- |
 * | a run spec | `{"kind": "app", "app": <app JSON>}` or `{"kind": "pod", "pod": <pod JSON>}`   |
 * | a group    | Marathon's group JSON: `{id, apps, pods, groups, dependencies, version, enforceRole}` with the apps and pods as their JSON, children in the tree's order |
 * | a root (store format 4) | the same, each app and pod as a reference `{id, version}` to its run spec version record |
 *
 * The pairs: {@link runSpecToRecord} / {@link runSpecFromRecord}, {@link groupToRecord} and
 * {@link groupToReferenceRecord} / {@link RunSpecRecordReader.group}. Reading is memoized per record
 * text within one reader, so the same app held by many stored groups is converted once and shared
 * (as the core shares it); a reference is resolved from the run spec versions the reader was given
 * ({@link RunSpecRecordReader.keepVersion}).
 */

/** A run spec's stored record. */
export type RunSpecRecord =
  | { readonly kind: 'app'; readonly app: Record<string, unknown> }
  | { readonly kind: 'pod'; readonly pod: Record<string, unknown> };

/** The record of a run spec: its Marathon JSON with every default, version and versionInfo. */
export function runSpecToRecord(spec: RunSpec): RunSpecRecord {
  return spec.kind === 'app' ? { kind: 'app', app: appDefinitionJson(spec) } : { kind: 'pod', pod: podDefinitionJson(spec) };
}

/** The record of a group and everything below it. */
export function groupToRecord(group: Group): Record<string, unknown> {
  return {
    id: group.id,
    apps: [...group.apps.values()].map((app) => appDefinitionJson(app)),
    pods: [...group.pods.values()].map((pod) => podDefinitionJson(pod)),
    groups: [...group.groups.values()].map(groupToRecord),
    dependencies: [...group.dependencies],
    version: group.version,
    enforceRole: group.enforceRole,
  };
}

/**
 * The record of a root or root version (store format 4): the group tree with each app and pod as
 * a reference `{id, version}` to its run spec version record, which the version history keeps as
 * long as a kept root version holds it (src/scheduler/groups/version-history.ts). So a change
 * writes the root's shape, not every definition again: Marathon's `StoredGroup` stores its apps
 * the same way, as id → version references to its app repository.
 */
export function groupToReferenceRecord(group: Group): Record<string, unknown> {
  return {
    id: group.id,
    apps: [...group.apps.values()].map(referenceTo),
    pods: [...group.pods.values()].map(referenceTo),
    groups: [...group.groups.values()].map(groupToReferenceRecord),
    dependencies: [...group.dependencies],
    version: group.version,
    enforceRole: group.enforceRole,
  };
}

function referenceTo(spec: RunSpec): RunSpecReference {
  return { id: spec.id, version: spec.version };
}

/** A stored group's app or pod held by reference: its run spec version record's id and version. */
export interface RunSpecReference {
  readonly id: string;
  readonly version: string;
}

/**
 * Whether a stored group's app or pod entry is a reference: exactly `id` and `version`, two
 * strings. Marathon's JSON of an app or pod, as {@link runSpecToRecord} renders it, always holds
 * more (every default is filled), so it is never taken for one.
 */
export function isReference(entry: unknown): entry is RunSpecReference {
  if (!isObject(entry) || typeof entry.id !== 'string' || typeof entry.version !== 'string') return false;
  for (const key in entry) if (key !== 'id' && key !== 'version') return false;
  return true;
}

/** A record read back, or why it cannot be. */
export type RecordResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** The run spec of a record (see {@link RunSpecRecordReader.runSpec}), without memoization. */
export function runSpecFromRecord(record: unknown): RecordResult<RunSpec> {
  return new RunSpecRecordReader().runSpec(record);
}

/**
 * Reads records back into the model. One reader per load: it remembers every app and pod it
 * converted by its JSON text, so equal records become one shared object.
 */
export class RunSpecRecordReader {
  private readonly converted = new Map<string, RecordResult<RunSpec>>();
  /** The run spec versions references resolve to, by {@link versionKey}, with the Marathon JSON they were read from. */
  private readonly versions = new Map<string, { readonly spec: RunSpec; readonly json: unknown }>();
  /** The run specs being run, by {@link versionKey}: what a reference resolves to when its version record is missing. */
  private readonly running = new Map<string, RunSpec>();
  /** The root versions decoded so far, by version: what a deployment's reference to one resolves to (store format 8). */
  private readonly rootVersions = new Map<string, Group>();

  /**
   * Makes `root`, decoded from the root version record stored under its version, what a
   * deployment's reference to that version resolves to. A store's load decodes every root version
   * before the deployments (records/record-load-order.ts).
   */
  keepRootVersion(root: Group): void {
    this.rootVersions.set(root.version, root);
  }

  /** The root version `version` kept by {@link keepRootVersion}, or undefined. */
  rootVersion(version: string): Group | undefined {
    return this.rootVersions.get(version);
  }

  /**
   * Makes `spec`, read from the run spec version record `record` (the one stored under its id and
   * version), what references to its id and version resolve to. A store's load gives the reader
   * every run spec version before the roots (records/record-codec.ts).
   */
  keepVersion(spec: RunSpec, record: unknown): void {
    const json = isObject(record) ? record[spec.kind] : undefined;
    this.versions.set(versionKey(spec.kind, spec.id, spec.version), { spec, json });
  }

  /**
   * Makes `spec`, read from a run spec record (one the core runs), what a reference to its id and
   * version resolves to when no run spec version record holds it: the same id and version are the
   * same definition. So one version record that does not decode does not take the root with it
   * while the run spec it names still runs (the root held it whole before store format 4).
   */
  keepRunning(spec: RunSpec): void {
    this.running.set(versionKey(spec.kind, spec.id, spec.version), spec);
  }

  /**
   * The text of the Marathon JSON of the kept run spec version `id` at `version`, or undefined when
   * none was kept (record-migrations.ts: an app held whole becomes a reference only when the version
   * record holds exactly its JSON). Rendered on demand: only a migration asks, and a load keeps
   * every version of every app (no text of each kept for nothing).
   */
  keptVersionText(kind: 'app' | 'pod', id: string, version: string): string | undefined {
    const kept = this.versions.get(versionKey(kind, id, version));
    return kept === undefined ? undefined : JSON.stringify(kept.json);
  }

  /**
   * The run spec of a record written by {@link runSpecToRecord}: the Marathon JSON converted with
   * the API's rules, its stored `version` and `versionInfo` kept. A record that is not one, or
   * whose JSON the converter refuses, gives the reason (the store sets such a record aside).
   */
  runSpec(record: unknown): RecordResult<RunSpec> {
    if (!isObject(record)) return fail('is not a run spec record');
    if (record.kind === 'app') return this.json('app', record.app);
    if (record.kind === 'pod') return this.json('pod', record.pod);
    return fail('is not a run spec record (kind is neither app nor pod)');
  }

  /**
   * The group of a record written by {@link groupToRecord} or {@link groupToReferenceRecord} (its
   * apps and pods held whole or by reference, in any mix: a migrated root keeps whole the ones
   * whose version record was missing), or the first reason it cannot be read, such as a reference
   * to a version no kept run spec version record holds.
   */
  group(record: unknown, at = ''): RecordResult<Group> {
    if (!isObject(record) || typeof record.id !== 'string') return fail(`group${at}: is not a group record`);
    const where = `group ${record.id}`;
    if (typeof record.version !== 'string') return fail(`${where}: no version`);
    if (typeof record.enforceRole !== 'boolean') return fail(`${where}: enforceRole is not a boolean`);
    if (!isStringArray(record.dependencies)) return fail(`${where}: dependencies are not a list of ids`);
    if (!Array.isArray(record.apps) || !Array.isArray(record.pods) || !Array.isArray(record.groups)) return fail(`${where}: apps, pods or groups is not a list`);
    const apps = new Map<string, AppSpec>();
    const pods = new Map<string, PodSpec>();
    const groups = new Map<string, Group>();
    for (const json of record.apps) {
      const app = this.entry('app', json);
      if (!app.ok) return fail(`${where}: ${app.reason}`);
      apps.set(app.value.id, app.value as AppSpec);
    }
    for (const json of record.pods) {
      const pod = this.entry('pod', json);
      if (!pod.ok) return fail(`${where}: ${pod.reason}`);
      pods.set(pod.value.id, pod.value as PodSpec);
    }
    for (const child of record.groups) {
      const group = this.group(child, ` in ${record.id}`);
      if (!group.ok) return group;
      groups.set(group.value.id, group.value);
    }
    return { ok: true, value: { id: record.id, apps, pods, groups, dependencies: [...record.dependencies], enforceRole: record.enforceRole, version: record.version } };
  }

  /** An app or pod of a group record: resolved when it is a reference, converted when held whole. */
  private entry(kind: 'app' | 'pod', json: unknown): RecordResult<RunSpec> {
    if (!isReference(json)) return this.json(kind, json);
    const key = versionKey(kind, json.id, json.version);
    const spec = this.versions.get(key)?.spec ?? this.running.get(key);
    return spec === undefined ? fail(`${kind} ${json.id} refers to version ${json.version}, which no stored ${kind} version holds`) : { ok: true, value: spec };
  }

  private json(kind: 'app' | 'pod', json: unknown): RecordResult<RunSpec> {
    if (!isObject(json)) return fail(`${kind}: is not an object`);
    const key = `${kind}\n${JSON.stringify(json)}`;
    let result = this.converted.get(key);
    if (result === undefined) {
      result = convertStored(kind, json);
      this.converted.set(key, result);
    }
    return result;
  }
}

/**
 * Marathon JSON as stored → the model. The context is the record's own: its `role` as the
 * default role (a stored role was allowed when it was stored, whatever `--mesos_role` says now),
 * its `version` as the version; `versionInfo` is then taken as stored.
 */
function convertStored(kind: 'app' | 'pod', json: Readonly<Record<string, unknown>>): RecordResult<RunSpec> {
  const id = typeof json.id === 'string' ? json.id : '(no id)';
  if (typeof json.version !== 'string') return fail(`${kind} ${id}: no version`);
  const versionInfo = versionInfoOf(json.versionInfo, json.version);
  if (versionInfo === undefined) return fail(`${kind} ${id}: versionInfo is not two timestamps`);
  const role = typeof json.role === 'string' ? json.role : '*';
  const ctx = { defaultRole: role, previousRole: role, versionIso: json.version, storedRecord: true };
  const result: ConvertResult<RunSpec> = kind === 'app' ? appFromWire(json, ctx) : podFromWire(json, ctx);
  if (!result.ok) return fail(`${kind} ${id}: ${result.errors.map((e) => `${e.path}: ${e.errors.join(', ')}`).join('; ')}`);
  return { ok: true, value: { ...result.spec, versionInfo } };
}

function versionKey(kind: 'app' | 'pod', id: string, version: string): string {
  return `${kind}\n${id}\n${version}`;
}

function versionInfoOf(value: unknown, version: string): VersionInfo | undefined {
  if (value === undefined) return { lastScalingAt: version, lastConfigChangeAt: version };
  if (!isObject(value) || typeof value.lastScalingAt !== 'string' || typeof value.lastConfigChangeAt !== 'string') return undefined;
  return { lastScalingAt: value.lastScalingAt, lastConfigChangeAt: value.lastConfigChangeAt };
}

function fail<T>(reason: string): RecordResult<T> {
  return { ok: false, reason };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
