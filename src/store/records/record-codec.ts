import type { Deployment } from '../../scheduler/model/deployment';
import type { Group } from '../../scheduler/index';
import type { Instance } from '../../scheduler/model/instance';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import { RunSpecRecordReader } from '../run-spec-record';
import type { TaskFailure } from '../../scheduler/model/task-failure';
import { storedDeployment, storedGroup, storedInstance, storedRunSpec, storedTaskFailure } from '../../generated/record-validators';
import { recordCheck } from './record-schema';
import { groupFromStored, runSpecFromStored, runSpecToStored } from './spec-records';
import { rootText } from './root-text';
import type { StoredRootVersions } from './stored-root-versions';
import { deploymentFromStored, deploymentToStored, type StoredDeploymentV1 } from './stored-deployment';
import { instanceFromStored, instanceToStored, type StoredInstanceV1 } from './stored-instance';
import { taskFailureFromStored, taskFailureToStored, type StoredTaskFailureV1 } from './stored-task-failure';

/** The core's value of each kind of stored record. */
export interface RecordValues {
  readonly root: Group;
  readonly rootVersion: Group;
  readonly runSpec: RunSpec;
  readonly runSpecVersion: RunSpec;
  readonly deployment: Deployment;
  readonly instance: Instance;
  readonly frameworkId: string;
  readonly taskFailure: TaskFailure;
}

/** What a record is stored under: its key (run spec, deployment or instance id; a root version; `/`; a task failure's run spec id) and, for a run spec version, its version. */
export interface RecordKey {
  readonly key: string;
  readonly version?: string;
}

/** A decoded record, or why it cannot be loaded (the reason a set-aside record carries). */
export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** How each kind is checked, mapped and keyed (record texts are JSON, except the framework id: its own text). */
interface RecordFormat<K extends StoredRecordKind> {
  readonly check: (value: unknown) => string | undefined;
  /** The record's text; `rootVersions`: the store's root versions, which a deployment may refer to (format 8). */
  readonly encode: (value: RecordValues[K], rootVersions: StoredRootVersions | undefined) => string;
  /** The core's value, or why not (run specs and groups: the converter's reasons, run-spec-record.ts). */
  readonly fromStored: (stored: never, reader: RunSpecRecordReader) => Decoded<RecordValues[K]>;
  readonly keyOf: (value: RecordValues[K]) => RecordKey;
}

const SINGLE: RecordKey = { key: '/' };
// Each kind's schema (STORED_RUN_SPEC_SCHEMA, STORED_GROUP_SCHEMA, STORED_DEPLOYMENT_SCHEMA,
// STORED_INSTANCE_SCHEMA, STORED_TASK_FAILURE_SCHEMA) compiled when pacer is built (src/validation/validator-modules.ts).
const runSpecCheck = recordCheck('a stored run spec', storedRunSpec);
const groupCheck = recordCheck('a stored group', storedGroup);
/** A run spec's text, as the current record and as a version alike. */
const runSpecText = (s: RunSpec): string => JSON.stringify(runSpecToStored(s));

const FORMATS: { readonly [K in Exclude<StoredRecordKind, 'frameworkId'>]: RecordFormat<K> } = {
  // A change writes its new root as the root and as a root version: root-text.ts encodes it once.
  root: { check: groupCheck, encode: rootText, fromStored: groupFromStored, keyOf: () => SINGLE },
  rootVersion: { check: groupCheck, encode: rootText, fromStored: groupFromStored, keyOf: (g) => ({ key: g.version }) },
  runSpec: { check: runSpecCheck, encode: runSpecText, fromStored: runSpecFromStored, keyOf: (s) => ({ key: s.id }) },
  runSpecVersion: { check: runSpecCheck, encode: runSpecText, fromStored: runSpecFromStored, keyOf: (s) => ({ key: s.id, version: s.version }) },
  deployment: {
    check: recordCheck('StoredDeploymentV1', storedDeployment),
    encode: (d, rootVersions) => JSON.stringify(deploymentToStored(d, rootVersions)),
    fromStored: (s: StoredDeploymentV1, reader) => deploymentFromStored(s, reader),
    keyOf: (d) => ({ key: d.plan.id }),
  },
  instance: {
    check: recordCheck('StoredInstanceV1', storedInstance),
    encode: (i) => JSON.stringify(instanceToStored(i)),
    fromStored: (s: StoredInstanceV1) => ({ ok: true, value: instanceFromStored(s) }),
    keyOf: (i) => ({ key: i.instanceId }),
  },
  taskFailure: {
    check: recordCheck('StoredTaskFailureV1', storedTaskFailure),
    encode: (f) => JSON.stringify(taskFailureToStored(f)),
    fromStored: (s: StoredTaskFailureV1) => ({ ok: true, value: taskFailureFromStored(s) }),
    keyOf: (f) => ({ key: f.appId }),
  },
};

/** Where `value` of `kind` is stored (what {@link decodeRecord} expects it back under). */
export function recordKeyOf<K extends StoredRecordKind>(kind: K, value: RecordValues[K]): RecordKey {
  if (kind === 'frameworkId') return SINGLE;
  return (FORMATS[kind as Exclude<K, 'frameworkId'>] as RecordFormat<StoredRecordKind>).keyOf(value as never);
}

/**
 * The stored text of `value`: its explicit record (a fresh copy, so the core may keep mutating its
 * own object) as JSON; the framework id as itself. Run specs and groups are rendered as
 * Marathon's JSON (spec-records.ts, ../run-spec-record.ts). A deployment refers to each of its
 * roots by version where `rootVersions` (the store's) holds that very root (format 8,
 * stored-deployment.ts); without it both roots are held whole.
 */
export function encodeRecord<K extends StoredRecordKind>(kind: K, value: RecordValues[K], rootVersions?: StoredRootVersions): string {
  if (kind === 'frameworkId') return value as string;
  const format = FORMATS[kind as Exclude<K, 'frameworkId'>] as RecordFormat<StoredRecordKind>;
  return format.encode(value as never, rootVersions);
}

/**
 * The core's value of a stored text, or why it cannot be loaded: the text is not JSON, its record
 * fails the kind's schema (ajv), the converter refuses a run spec or group in it, it is not the
 * record `at` names (a run spec stored under another id, …), or mapping it fails. Never throws
 * (issue 11: a bad record is set aside, never fatal). Pass one `reader` for a whole load: equal
 * apps and pods are then converted once and shared, and a run spec version that decodes is kept
 * in it, for the roots and root versions that refer to it (store format 4; failing that, a run
 * spec of that id and version): a store decodes every run spec and run spec version before them,
 * and a root referring to a version it did not decode (missing, or set aside) does not decode
 * either (its reason names the version).
 */
export function decodeRecord<K extends StoredRecordKind>(
  kind: K, text: unknown, at: RecordKey, reader: RunSpecRecordReader = new RunSpecRecordReader(),
): Decoded<RecordValues[K]> {
  if (kind === 'frameworkId') {
    return typeof text === 'string' && text !== '' ? { ok: true, value: text as RecordValues[K] } : { ok: false, reason: 'is not a framework id' };
  }
  const format = FORMATS[kind as Exclude<K, 'frameworkId'>] as RecordFormat<StoredRecordKind>;
  try {
    const tree = JSON.parse(typeof text === 'string' ? text : String(text)) as unknown;
    const problem = format.check(tree);
    if (problem !== undefined) return { ok: false, reason: problem };
    const read = format.fromStored(tree as never, reader) as Decoded<RecordValues[K]>;
    if (!read.ok) return read;
    const value = read.value;
    const key = format.keyOf(value as never);
    if (key.key !== at.key || key.version !== at.version) return { ok: false, reason: 'is not the record its key names' };
    if (kind === 'runSpecVersion') reader.keepVersion(value as RunSpec, tree);
    if (kind === 'runSpec') reader.keepRunning(value as RunSpec);
    if (kind === 'rootVersion') reader.keepRootVersion(value as Group);
    return { ok: true, value };
  } catch (err) {
    return { ok: false, reason: `does not decode (${(err as Error).message})` };
  }
}
