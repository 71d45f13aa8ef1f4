import type { ApiDeps } from '../../api-deps';
import type { ConvertContext } from '../../../marathon/convert/convert-context';
import { podFromWire } from '../../../marathon/convert/pod-from-wire';
import { badRequest, emptyBody, invalidJson, objectNotValid } from '../../errors';
import { podShapeErrors } from '../../../marathon/schemas/pod-shape-errors';
import { roleContextOf, findRunSpec, isoTime } from '../../../scheduler/index';
import type { PodSpec } from '../../../scheduler/model/pod';
import { absolutePodId } from './pod-target';

/** What a pod write request brings besides its body. */
export interface PodWrite {
  /** `PUT /v2/pods/{id}`: the id of the URL, which the body's id must equal (fact 84). */
  readonly pathId?: string;
  /** `?force=true`: allows a role change of a resident pod (fact 114). */
  readonly force: boolean;
}

/**
 * The normalized pod of a `POST`/`PUT` body, or the catalogue error that answers it, checked in
 * Marathon's order:
 *
 * 1. no body → 400 (fact 6);
 * 2. the shape (JSON Schema) → 422 "Invalid JSON" with play-json keys (fact 4);
 * 3. `PUT`: the URL id must equal the body's id (relative ids resolved) → 400 (fact 84);
 * 4. the semantic conversion (`podFromWire`, roles with the group's enforcement) → 422
 *    "Object is not valid" (fact 3);
 * 5. a resident pod may change its role only with `force` → 422 at `/role` (fact 114).
 *
 * The version written is the API clock's now.
 */
export function podSpecFromRequest(deps: ApiDeps, body: unknown, write: PodWrite): PodSpec {
  if (body === undefined || body === null) throw emptyBody();
  const shape = podShapeErrors(body);
  if (shape.length > 0) throw invalidJson(shape);
  const record = body as Record<string, unknown>;
  const id = absolutePodId(record.id as string);
  if (write.pathId !== undefined && write.pathId !== id) {
    throw badRequest(`'${write.pathId}' does not match definition's id ('${String(record.id)}')`);
  }
  const previous = existingPod(deps, id);
  const converted = podFromWire({ ...record, id }, convertContext(deps, id, previous));
  if (!converted.ok) throw objectNotValid(converted.errors);
  return converted.spec;
}

/** The pod stored under `id` now (the current root), if any. */
export function existingPod(deps: ApiDeps, id: string): PodSpec | undefined {
  const found = findRunSpec(deps.scheduler.root(), id);
  return found?.kind === 'pod' ? found : undefined;
}

/**
 * The conversion context of a pod write (spec 2.7): the default role and network name from the
 * config, now as the version, and the group role when the pod's top-level group enforces it (or
 * would be created enforcing, with `--new_group_enforce_role top`, fact 112). An existing pod's
 * current role stays acceptable until changed (fact 111): `previousRole`. `--enable_features`:
 * the pod's secrets need `secrets` (`feature-rules.ts`).
 */
function convertContext(deps: ApiDeps, id: string, previous: PodSpec | undefined): ConvertContext {
  const { config } = deps;
  return {
    defaultRole: config.defaultRole,
    versionIso: isoTime(deps.clock.nowMs()),
    enabledFeatures: config.features,
    ...(config.defaultNetworkName !== undefined ? { defaultNetworkName: config.defaultNetworkName } : {}),
    ...roleContextOf(deps.scheduler.root(), id, previous, config.newGroupEnforceRole),
  };
}

