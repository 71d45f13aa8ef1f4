import type { StoredRecordKind } from '../../scheduler/ports/store';
import { isReference, type RunSpecRecordReader } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';

/**
 * Format 3 → 4, one record at a time: a root or root version stops holding each app and pod whole
 * and refers to it by id and version (../run-spec-record.ts, `groupToReferenceRecord`), the
 * definition being the run spec version record stored under that id and version. An app or pod
 * becomes a reference only when `reader` holds that version and its Marathon JSON is exactly the
 * one the root held (the backend decodes every run spec version record into `reader` before it
 * migrates the roots); otherwise it stays whole, which format 4 reads too, so nothing is lost
 * when a version record is missing or differs. Other records do not change (a deployment kept
 * its two roots whole until format 6: {@link deploymentRootsByReference}).
 *
 * Idempotent (the ZooKeeper store may run it twice): a reference stays a reference, and an app
 * kept whole is looked at again with the same answer.
 */
export function rootsByReference(kind: StoredRecordKind, record: JsonValue, reader: RunSpecRecordReader): JsonValue {
  return kind === 'root' || kind === 'rootVersion' ? referring(record, reader) : record;
}

/**
 * Format 5 → 6, one record at a time: a deployment's `original` and `target` roots get the form
 * format 4 gave the root and its versions, each app and pod a reference `{id, version}` to its run
 * spec version record, by the same rule (only where `reader` holds that version with exactly the
 * JSON the deployment held; otherwise it stays whole, which format 6 reads too). Other records do
 * not change. Idempotent, as {@link rootsByReference} is.
 */
export function deploymentRootsByReference(kind: StoredRecordKind, record: JsonValue, reader: RunSpecRecordReader): JsonValue {
  if (kind !== 'deployment' || !isObject(record)) return record;
  return { ...record, ...defined('original', rootOf(record.original, reader)), ...defined('target', rootOf(record.target, reader)) };
}

function rootOf(group: JsonValue | undefined, reader: RunSpecRecordReader): JsonValue | undefined {
  return group === undefined ? undefined : referring(group, reader);
}

function referring(group: JsonValue, reader: RunSpecRecordReader): JsonValue {
  if (!isObject(group)) return group;
  const entries = (kind: 'app' | 'pod', list: JsonValue | undefined): JsonValue | undefined =>
    Array.isArray(list) ? list.map((entry) => reference(kind, entry, reader)) : list;
  const groups = Array.isArray(group.groups) ? group.groups.map((child) => referring(child, reader)) : group.groups;
  // The spread keeps the members' order; only apps, pods and groups get new values.
  return { ...group, ...defined('apps', entries('app', group.apps)), ...defined('pods', entries('pod', group.pods)), ...defined('groups', groups) };
}

function reference(kind: 'app' | 'pod', entry: JsonValue, reader: RunSpecRecordReader): JsonValue {
  if (!isObject(entry) || isReference(entry) || typeof entry.id !== 'string' || typeof entry.version !== 'string') return entry;
  return reader.keptVersionText(kind, entry.id, entry.version) === JSON.stringify(entry) ? { id: entry.id, version: entry.version } : entry;
}

function defined(key: string, value: JsonValue | undefined): { [key: string]: JsonValue } {
  return value === undefined ? {} : { [key]: value };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
