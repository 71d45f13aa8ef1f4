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
 *
 * The pair: {@link runSpecToRecord} / {@link runSpecFromRecord} and {@link groupToRecord} /
 * {@link RunSpecRecordReader.group}. Reading is memoized per record text within one reader, so the
 * same app held by many stored root versions is converted once and shared (as the core shares it).
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

  /** The group of a record written by {@link groupToRecord}, or the first reason it cannot be read. */
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
      const app = this.json('app', json);
      if (!app.ok) return fail(`${where}: ${app.reason}`);
      apps.set(app.value.id, app.value as AppSpec);
    }
    for (const json of record.pods) {
      const pod = this.json('pod', json);
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
  const ctx = { defaultRole: role, previousRole: role, versionIso: json.version };
  const result: ConvertResult<RunSpec> = kind === 'app' ? appFromWire(json, ctx) : podFromWire(json, ctx);
  if (!result.ok) return fail(`${kind} ${id}: ${result.errors.map((e) => `${e.path}: ${e.errors.join(', ')}`).join('; ')}`);
  return { ok: true, value: { ...result.spec, versionInfo } };
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
