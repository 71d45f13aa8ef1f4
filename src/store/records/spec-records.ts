import type { Group } from '../../scheduler/groups/group';
import type { RunSpec } from '../../scheduler/model/run-spec';
import { decodeTree, encodeTree, type JsonValue } from '../sqlite/codec';
import type { JsonSchema } from './record-schema';

/**
 * How run specs and groups are stored — the one place the store encodes them, and the seam the
 * typed run-spec model (R1, issue 12) replaces with explicit records of its own (Marathon wire
 * JSON rendered from the typed model). Until then this is store format 2's encoding: the codec's
 * JSON tree of the core's objects (codec.ts: Maps and Sets tagged, Map order kept).
 *
 * Everything else the store keeps (instances, deployments around their groups, the framework id)
 * is an explicit record of its own (stored-instance.ts, stored-deployment.ts, record-codec.ts).
 */
export function runSpecToStored(spec: RunSpec): JsonValue {
  return encodeTree(spec);
}

/** The run spec of a stored tree that passed {@link STORED_RUN_SPEC_SCHEMA}. Throws on a malformed codec tag. */
export function runSpecFromStored(tree: JsonValue): RunSpec {
  return decodeTree(tree) as RunSpec;
}

/** The stored tree of a group (the root, a root version, a deployment's original and target). */
export function groupToStored(group: Group): JsonValue {
  return encodeTree(group);
}

/** The group of a stored tree that passed {@link STORED_GROUP_SCHEMA}. Throws on a malformed codec tag. */
export function groupFromStored(tree: JsonValue): Group {
  return decodeTree(tree) as Group;
}

/**
 * What the store checks of a stored run spec: an object with its id and version (the keys it is
 * stored under). Whether its definition makes sense is the core's to judge on recovery
 * (src/scheduler/state/stored/run-spec-check.ts, which sets aside what it cannot run).
 */
export const STORED_RUN_SPEC_SCHEMA: JsonSchema = {
  type: 'object', required: ['id', 'version'], properties: { id: { type: 'string' }, version: { type: 'string' } },
};

/** What the store checks of a stored group: an object with its version (the core checks the rest: group-check.ts). */
export const STORED_GROUP_SCHEMA: JsonSchema = {
  type: 'object', required: ['version'], properties: { version: { type: 'string' } },
};
