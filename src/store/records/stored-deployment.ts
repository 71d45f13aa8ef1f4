import type { Deployment } from '../../scheduler/model/deployment';
import type { DeploymentActionName, DeploymentPlan } from '../../scheduler/model/deployment-plan';
import type { RecordResult, RunSpecRecordReader } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';
import type { JsonSchema } from './record-schema';
import { groupFromStored, groupToStored, STORED_GROUP_SCHEMA } from './spec-records';

/**
 * How a running deployment is stored (store format 3): its plan as an explicit record, the two
 * roots it goes between as stored groups (spec-records.ts), and how far it got. Mapped by hand
 * from and to the core's {@link Deployment}; a change of shape needs a new format version.
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
    plan: planCopy(d.plan), original: groupToStored(d.original), target: groupToStored(d.target),
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
    value: { plan: planCopy(s.plan), original: original.value, target: target.value, stepIndex: s.stepIndex, startedAtMs: s.startedAtMs },
  };
}

function planCopy(p: DeploymentPlan | StoredDeploymentPlanV1): DeploymentPlan {
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
