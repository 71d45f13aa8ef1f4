import type { Group } from '../../scheduler/index';
import type { Deployment } from '../../scheduler/model/deployment';
import type { DeploymentActionName, DeploymentPlan } from '../../scheduler/model/deployment-plan';
import type { RecordResult, RunSpecRecordReader } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';
import type { JsonSchema } from './record-schema';
import type { StoredRootVersions } from './stored-root-versions';
import { groupFromStored, rootToStored, STORED_GROUP_SCHEMA } from './spec-records';

/**
 * How a running deployment is stored (store format 3): its plan as an explicit record, the two
 * roots it goes between, and how far it got. Mapped by hand from and to the core's
 * {@link Deployment}; a change of shape needs a new format version.
 *
 * Each root is stored in one of two forms:
 * - **by root version** (format 8): `{"rootVersion": "<version>"}`, when the store holds that very
 *   root as a root version (stored-root-versions.ts), as Marathon's `StoredPlan` refers to its
 *   `originalVersion` and `targetVersion`. A change's target is the root version it records, and
 *   its original the one before, so this is nearly every deployment; the record is then a few
 *   hundred bytes whatever the number of apps (it held ~60 bytes per app and pod of each root:
 *   with 1,285 apps and 585 deployments waiting, 53 MB of a 61 MB store, and half of an app
 *   creation's store time). The version history keeps a root version a running deployment holds
 *   beyond its cap until the deployment ends (`VersionHistory.holdRoot`, held by the deployment
 *   manager while it runs and by recovery), so the reference outlives the record's use;
 * - **whole**, otherwise (the empty root a fresh core starts from is never stored; the root a
 *   restart recovered is another object than its root version; a store an older pacer wrote may
 *   hold the root without its version): as the root is stored since format 4 (`rootToStored`:
 *   each app and pod a reference `{id, version}` to its run spec version record, format 6), which
 *   the version history keeps while a running deployment's root holds it.
 *
 * A reference that does not resolve all the same (its root version or a run spec version missing)
 * makes the record fail to load with a reason naming it (`original: refers to root version …,
 * which is not stored`): the deployment is set aside and the rest starts.
 */
export interface StoredDeploymentV1 {
  readonly plan: StoredDeploymentPlanV1;
  readonly original: JsonValue;
  readonly target: JsonValue;
  readonly stepIndex: number;
  readonly startedAtMs: number;
}

/** A deployment plan: Marathon's DeploymentPlan id, both roots' versions, its steps. */
export interface StoredDeploymentPlanV1 {
  readonly id: string;
  readonly originalVersion: string;
  readonly targetVersion: string;
  readonly steps: readonly { readonly actions: readonly StoredDeploymentActionV1[] }[];
  readonly affectedRunSpecIds: readonly string[];
}

/** One action of a step, with Marathon's action name. */
export interface StoredDeploymentActionV1 {
  readonly action: DeploymentActionName;
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
}

/** The stored record of `deployment`: each root by reference where `rootVersions` (the store's) holds that very root, else whole. */
export function deploymentToStored(d: Deployment, rootVersions?: StoredRootVersions): StoredDeploymentV1 {
  const root = (g: Group): JsonValue => (rootVersions?.holds(g) === true ? rootVersionReference(g.version) : rootToStored(g));
  return {
    plan: planToStored(d.plan), original: root(d.original), target: root(d.target),
    stepIndex: d.stepIndex, startedAtMs: d.startedAtMs,
  };
}

/** The core's deployment of a record that passed {@link STORED_DEPLOYMENT_SCHEMA}, or why one of its roots cannot be read. */
export function deploymentFromStored(s: StoredDeploymentV1, reader: RunSpecRecordReader): RecordResult<Deployment> {
  const original = rootFromStored(s.original, reader);
  if (!original.ok) return { ok: false, reason: `original: ${original.reason}` };
  const target = rootFromStored(s.target, reader);
  if (!target.ok) return { ok: false, reason: `target: ${target.reason}` };
  return {
    ok: true,
    value: { plan: planToStored(s.plan), original: original.value, target: target.value, stepIndex: s.stepIndex, startedAtMs: s.startedAtMs },
  };
}

/** The stored form of a deployment's root that is the root version `version` (format 8). */
function rootVersionReference(version: string): { readonly rootVersion: string } {
  return { rootVersion: version };
}

/** A deployment's root: the root version it refers to (kept in `reader` by the load), or the group it holds. */
function rootFromStored(stored: JsonValue, reader: RunSpecRecordReader): RecordResult<Group> {
  if (stored !== null && typeof stored === 'object' && !Array.isArray(stored) && typeof stored.rootVersion === 'string') {
    const root = reader.rootVersion(stored.rootVersion);
    return root === undefined ? { ok: false, reason: `refers to root version ${stored.rootVersion}, which is not stored` } : { ok: true, value: root };
  }
  return groupFromStored(stored, reader);
}

/** A fresh copy of a plan, as stored and as the core holds it (the same explicit fields). */
function planToStored(p: DeploymentPlan | StoredDeploymentPlanV1): DeploymentPlan {
  return {
    id: p.id, originalVersion: p.originalVersion, targetVersion: p.targetVersion,
    steps: p.steps.map((step) => ({ actions: step.actions.map((a) => ({ action: a.action, runSpecId: a.runSpecId, kind: a.kind })) })),
    affectedRunSpecIds: [...p.affectedRunSpecIds],
  };
}

/** Marathon's action names (`satisfies`: a name added to the core's type must be added here). */
const ACTIONS = Object.keys({
  StartApplication: 1, StopApplication: 1, ScaleApplication: 1, RestartApplication: 1, StartPod: 1, StopPod: 1, ScalePod: 1, RestartPod: 1,
} satisfies Record<DeploymentActionName, 1>);

const STRING: JsonSchema = { type: 'string' };
const ACTION: JsonSchema = {
  type: 'object', required: ['action', 'runSpecId', 'kind'], additionalProperties: false,
  properties: { action: { enum: ACTIONS }, runSpecId: STRING, kind: { enum: ['app', 'pod'] } },
};

/** A deployment's root: a reference to a root version (format 8) or a stored group. */
const DEPLOYMENT_ROOT: JsonSchema = {
  anyOf: [
    { type: 'object', required: ['rootVersion'], additionalProperties: false, properties: { rootVersion: STRING } },
    STORED_GROUP_SCHEMA,
  ],
};

/** The JSON Schema every stored deployment is checked against on load (closed, groups as spec-records.ts checks them). */
export const STORED_DEPLOYMENT_SCHEMA: JsonSchema = {
  type: 'object', required: ['plan', 'original', 'target', 'stepIndex', 'startedAtMs'], additionalProperties: false,
  properties: {
    plan: {
      type: 'object', required: ['id', 'originalVersion', 'targetVersion', 'steps', 'affectedRunSpecIds'], additionalProperties: false,
      properties: {
        id: STRING, originalVersion: STRING, targetVersion: STRING,
        steps: {
          type: 'array',
          items: { type: 'object', required: ['actions'], additionalProperties: false, properties: { actions: { type: 'array', items: ACTION } } },
        },
        affectedRunSpecIds: { type: 'array', items: STRING },
      },
    },
    original: DEPLOYMENT_ROOT, target: DEPLOYMENT_ROOT,
    stepIndex: { type: 'integer', minimum: 0 }, startedAtMs: { type: 'number' },
  },
};
