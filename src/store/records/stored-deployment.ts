import type { Deployment } from '../../scheduler/model/deployment';
import type { DeploymentActionName, DeploymentPlan } from '../../scheduler/model/deployment-plan';
import type { RecordResult, RunSpecRecordReader } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';
import type { JsonSchema } from './record-schema';
import { groupFromStored, rootToStored, STORED_GROUP_SCHEMA } from './spec-records';

/**
 * How a running deployment is stored (store format 3): its plan as an explicit record, the two
 * roots it goes between as stored groups (spec-records.ts), and how far it got. Mapped by hand
 * from and to the core's {@link Deployment}; a change of shape needs a new format version.
 *
 * Since format 6 the two roots are written as the root and its versions are since format 4
 * (`rootToStored`: each app and pod a reference `{id, version}` to its run spec version record),
 * so the record costs ~60 bytes per app and pod of each root, whatever their definitions' size
 * (it held both roots whole: 9.5 MB of JSON with 1,000 apps of 4 KB labels, written at the start
 * and at each step). The JSON shape is unchanged (a group's apps may be whole or references: a
 * migrated record keeps whole what had no exact version record), hence still `V1`.
 *
 * Why references to run spec versions and not, as Marathon's `StoredPlan`, to root versions
 * (`originalVersion`/`targetVersion`): a deployment's original is not always a stored root
 * version (the empty root a fresh core starts from is never stored; a store an older pacer wrote
 * may hold the root without its version), so root references would need this form as a fallback
 * anyway, plus loading the root versions before the deployments and keeping root versions beyond
 * `--zk_max_versions`. Run spec versions are what every root already refers to, and the same
 * reader resolves them. They must outlive the deployment's changes: the version history keeps
 * every version a running deployment's roots hold, beyond its cap and after the app left the
 * root (`VersionHistory.holdRoot`, held by the deployment manager while it runs and by recovery).
 * One that is missing all the same makes the record fail to load, with a reason naming it
 * (`original: group /: app /a refers to version …, which no stored app version holds`): the
 * deployment is set aside and the rest starts.
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

/** The stored record of `deployment`. */
export function deploymentToStored(d: Deployment): StoredDeploymentV1 {
  return {
    plan: planToStored(d.plan), original: rootToStored(d.original), target: rootToStored(d.target),
    stepIndex: d.stepIndex, startedAtMs: d.startedAtMs,
  };
}

/** The core's deployment of a record that passed {@link STORED_DEPLOYMENT_SCHEMA}, or why one of its roots cannot be read. */
export function deploymentFromStored(s: StoredDeploymentV1, reader: RunSpecRecordReader): RecordResult<Deployment> {
  const original = groupFromStored(s.original, reader);
  if (!original.ok) return { ok: false, reason: `original: ${original.reason}` };
  const target = groupFromStored(s.target, reader);
  if (!target.ok) return { ok: false, reason: `target: ${target.reason}` };
  return {
    ok: true,
    value: { plan: planToStored(s.plan), original: original.value, target: target.value, stepIndex: s.stepIndex, startedAtMs: s.startedAtMs },
  };
}

/** A fresh copy of a plan, as stored and as the core holds it (the same explicit fields). */
export function planToStored(p: DeploymentPlan | StoredDeploymentPlanV1): DeploymentPlan {
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
    original: STORED_GROUP_SCHEMA, target: STORED_GROUP_SCHEMA,
    stepIndex: { type: 'integer', minimum: 0 }, startedAtMs: { type: 'number' },
  },
};
