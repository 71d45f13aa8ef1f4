import type { Group } from '../../scheduler/index';
import type { RunSpec } from '../../scheduler/model/run-spec';
import { groupToReferenceRecord, type RecordResult, type RunSpecRecordReader, runSpecToRecord } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';
import type { JsonSchema } from './record-schema';

/**
 * How run specs and groups are stored — the one place the store's records meet them. Since store
 * format 3 (issue 12, R1) they are Marathon's JSON rendered from the typed model and read back
 * through the converter, by the one pair in ../run-spec-record.ts ({@link runSpecToRecord} /
 * `RunSpecRecordReader.runSpec`, {@link groupToReferenceRecord} / `RunSpecRecordReader.group`); this file only
 * adapts that pair to the record codec (record-codec.ts) and says what the record schema checks.
 *
 * Everything else the store keeps (instances, deployments around their groups, the framework id)
 * is an explicit record of its own (stored-instance.ts, stored-deployment.ts, record-codec.ts).
 */
export function runSpecToStored(spec: RunSpec): JsonValue {
  return runSpecToRecord(spec) as unknown as JsonValue;
}

/** The run spec of a stored record that passed {@link STORED_RUN_SPEC_SCHEMA}, or the converter's reason. */
export function runSpecFromStored(tree: JsonValue, reader: RunSpecRecordReader): RecordResult<RunSpec> {
  return reader.runSpec(tree);
}

/**
 * The stored record of the root or a root version (store format 4) and of a deployment's original
 * and target roots (format 6): its apps and pods as references to their run spec version records,
 * resolved on load by the reader, which the store gives every run spec version record first
 * (record-codec.ts).
 */
export function rootToStored(root: Group): JsonValue {
  return groupToReferenceRecord(root) as unknown as JsonValue;
}

/** The group of a stored record that passed {@link STORED_GROUP_SCHEMA}, or the first reason it cannot be read. */
export function groupFromStored(tree: JsonValue, reader: RunSpecRecordReader): RecordResult<Group> {
  return reader.group(tree);
}

/**
 * What the record schema checks of a stored run spec: `{"kind": "app"|"pod", …}`. The converter
 * checks the Marathon JSON (run-spec-record.ts) and the core judges the rest on recovery
 * (src/scheduler/state/stored/run-spec-check.ts, which sets aside what it cannot run).
 */
export const STORED_RUN_SPEC_SCHEMA: JsonSchema = {
  type: 'object', required: ['kind'], properties: { kind: { enum: ['app', 'pod'] } },
};

/** What the record schema checks of a stored group: an object with its id and version (the reader checks the rest). */
export const STORED_GROUP_SCHEMA: JsonSchema = {
  type: 'object', required: ['id', 'version'], properties: { id: { type: 'string' }, version: { type: 'string' } },
};
