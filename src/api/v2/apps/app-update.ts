import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { illegalArgument, invalidJson, objectNotValid } from '../../errors';
import { queryBool, type Query } from '../../query';
import type { AppSpec } from '../../../scheduler/model/app';
import { isoTime } from '../../../scheduler/index';
import { checkAppShape, requireBody } from './app-definition';
import { canonicalAppId, findApp } from './app-lookup';
import { type AppUpdateMode, updatedAppSpec } from './app-update-spec';
import { publishApiPostEvent } from './api-post-event';
import { sendDeploymentResult, submitDeployment } from '../deployments/deployment-result';
import { resourceLocation } from '../../resource-location';
import { isRecord } from '../../../marathon/convert/wire-object';
import { MAX_APPS_PER_REQUEST, tooManyAppsMessage } from '../../../marathon/schemas/limits';

/** Fact 52: an element of a partial bulk update without `id`. */
const BULK_ID_MESSAGE = 'requirement failed: App Update must have app id set';

/**
 * `PUT /v2/apps/{id}` (facts 41–43, 45, 46) and `PATCH /v2/apps/{id}` (fact 44): 200 for an
 * existing app, 201 with `Location` when `PUT` created it; both answer `{version, deploymentId}`
 * with `Marathon-Deployment-Id`. `force` overrides deployment locks and allows the role change of
 * a resident app (the core checks it); publishes `api_post_event`.
 */
export function updateApp(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, appIdRaw: string, patch: boolean): FastifyReply {
  const query = request.query as Query;
  const force = queryBool(query, 'force', false);
  const mode: AppUpdateMode = { partial: patch || queryBool(query, 'partialUpdate', true), allowCreation: !patch, force };
  const appId = canonicalAppId(appIdRaw);
  const existing = findApp(deps, appId);
  const spec = updatedAppSpec(deps, appId, existing, requireBody(request.body), mode, isoTime(deps.clock.nowMs()));
  const started = submitDeployment(deps, { type: 'putRunSpec', spec, force });
  publishApiPostEvent(deps, request, findApp(deps, appId) ?? spec);
  if (existing !== undefined) return sendDeploymentResult(reply, started);
  return sendDeploymentResult(reply.header('Location', resourceLocation(request, appId)), started, 201);
}

/**
 * `PUT /v2/apps` and `PATCH /v2/apps` with a JSON array (fact 52): every element updates or (PUT
 * only) creates one app; the converted apps go to the core as one `putRunSpecs` change, which puts
 * them in order into one new root and one deployment (an element is merged over an earlier element
 * of the same id). Partial elements need `id` (422 otherwise); at most `MAX_APPS_PER_REQUEST`
 * elements (docs/limits.md). Answers `{version, deploymentId}`.
 */
export function updateApps(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, patch: boolean): FastifyReply {
  const query = request.query as Query;
  const force = queryBool(query, 'force', false);
  const mode: AppUpdateMode = { partial: patch || queryBool(query, 'partialUpdate', true), allowCreation: !patch, force };
  const body = requireBody(request.body);
  if (!Array.isArray(body)) throw invalidJson([{ path: '/', errors: ['error.expected.jsarray'] }]);
  if (body.length > MAX_APPS_PER_REQUEST) throw objectNotValid([{ path: '/', errors: [tooManyAppsMessage(body.length)] }]);
  const versionIso = isoTime(deps.clock.nowMs());
  const converted = new Map<string, AppSpec>();
  const specs = body.map((item, i) => {
    const spec = bulkElementSpec(deps, converted, item, i, mode, versionIso);
    converted.set(spec.id, spec);
    return spec;
  });
  const started = submitDeployment(deps, { type: 'changeRoot', change: { kind: 'putRunSpecs', specs }, force });
  // As stored by the core (its service ports assigned).
  for (const spec of specs) publishApiPostEvent(deps, request, findApp(deps, spec.id) ?? spec);
  return sendDeploymentResult(reply, started);
}

/** One element of a bulk body converted; `converted` holds the earlier elements by id, which it updates in place of the stored app. */
function bulkElementSpec(
  deps: ApiDeps, converted: ReadonlyMap<string, AppSpec>, item: unknown, index: number, mode: AppUpdateMode, versionIso: string,
): AppSpec {
  const pointer = `/${index}`;
  const rawId = isRecord(item) && typeof item.id === 'string' ? item.id : undefined;
  if (rawId === undefined) {
    // Shape errors first (a full app without id is `error.path.missing`), then Marathon's require.
    checkAppShape(item, mode.partial ? 'update' : 'app', pointer);
    throw illegalArgument(BULK_ID_MESSAGE);
  }
  const appId = canonicalAppId(rawId, pointer);
  const existing = converted.get(appId) ?? findApp(deps, appId);
  return updatedAppSpec(deps, appId, existing, item, mode, versionIso, pointer);
}

