import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { commandError, expectOk } from '../../command-result';
import { conflict, notFound, notFoundText, objectNotValid } from '../../errors';
import { type Query, queryBool } from '../../query';
import { readGroupPartialUpdate } from '../../schemas/group-partial-update';
import { type GroupUpdateBody, readGroupUpdate } from '../../schemas/group-update';
import { currentStepJson, isTopLevel, resolvePathId, validatePathId, NOT_TOP_LEVEL_MESSAGE, findGroup, findRunSpec } from '../../../scheduler/index';
import { sendDeploymentResult, submitDeployment } from '../deployments/deployment-result';
import { groupChangeOf } from './group-change';
import { groupIdOf } from './group-path';
import { resourceLocation } from '../../resource-location';

/** One write request: the path after `/v2/groups/` (empty for the root), query, body and origin. */
export interface GroupWrite {
  readonly rest: string;
  readonly query: Query;
  readonly body: unknown;
  /** The request's scheme and `Host`, for a created group's `Location` ({@link resourceLocation}). */
  readonly origin: Pick<FastifyRequest, 'protocol' | 'host'>;
}

/**
 * `POST /v2/groups[/{id}]` (fact 65): creates the group the body's `id` names (relative to the
 * URL's group) with its apps and subgroups → 201 + `Location` + `Marathon-Deployment-Id` +
 * `{version, deploymentId}`. An existing group → 409 `Group /g is already created. Use PUT to
 * change this group.`; an app at that path → 409 `An app with the path /g already exists.` —
 * both only for a valid body: the body's 422s come first.
 */
export function postGroup(deps: ApiDeps, req: GroupWrite, reply: FastifyReply): FastifyReply {
  const body = readGroupUpdate(req.body);
  const groupId = targetGroupId(req.rest, body);
  const force = queryBool(req.query, 'force', false);
  // The body is validated before the group's existence is checked, as Marathon's createWithPath
  // does (GroupsResource.scala:158-175): an invalid body for an existing group is its 422, not
  // the 409 (GroupsResourceTest.scala:525).
  const change = groupChangeOf(body, { deps, groupId, force });
  const root = deps.scheduler.root();
  if (findGroup(root, groupId) !== undefined) throw conflict(`Group ${groupId} is already created. Use PUT to change this group.`);
  if (findRunSpec(root, groupId)?.kind === 'app') throw conflict(`An app with the path ${groupId} already exists.`);
  const result = submitDeployment(deps, { type: 'changeRoot', change, force });
  reply.header('Location', resourceLocation(req.origin, groupId));
  return sendDeploymentResult(reply, result, 201);
}

/**
 * `PUT /v2/groups[/{id}]` (facts 60, 70, 71): creates or updates the group → 200 +
 * `Marathon-Deployment-Id` + `{version, deploymentId}`; `scaleBy` and `version` as
 * {@link groupChangeOf} describes. `?dryRun=true` deploys nothing and answers the plan's steps,
 * `{"steps":[{"actions":[{action, app|pod}]}]}`. A change touching run specs a running deployment
 * holds → 409 with the deployments unless `?force=true` (fact 7).
 */
export function putGroup(deps: ApiDeps, req: GroupWrite, reply: FastifyReply): FastifyReply {
  const body = readGroupUpdate(req.body);
  const groupId = targetGroupId(req.rest, body);
  const force = queryBool(req.query, 'force', false);
  const dryRun = queryBool(req.query, 'dryRun', false);
  const change = groupChangeOf(body, { deps, groupId, force });
  if (!dryRun) return sendDeploymentResult(reply, submitDeployment(deps, { type: 'changeRoot', change, force }));
  const preview = deps.scheduler.previewChange(change);
  if (!preview.ok) throw commandError(preview, deps.config.maxRunningDeployments);
  return reply.send({ steps: preview.plan.steps.map(currentStepJson) });
}

/**
 * `DELETE /v2/groups[/{id}]` (fact 75): removes the group with everything in it, pods included
 * (the root form empties the whole tree) → 200 + `{version, deploymentId}`; an unknown group →
 * 404 `{"message":"Group '/g' does not exist"}` (no details); a running deployment holding
 * anything inside → 409 unless `?force=true`.
 */
export function deleteGroup(deps: ApiDeps, req: GroupWrite, reply: FastifyReply): FastifyReply {
  const groupId = groupIdOf(req.rest);
  const force = queryBool(req.query, 'force', false);
  return sendDeploymentResult(reply, submitDeployment(deps, { type: 'changeRoot', change: { kind: 'removeGroup', groupId }, force }));
}

/**
 * `PATCH /v2/groups/{id}` with `{"enforceRole": bool}` (spec section 4, fact 72): sets role
 * enforcement of a top-level group → 200 with an empty body. A deeper group → 422 `Path needs to
 * be top-level`; an unknown group → 404. `enforceRole` left out means
 * `--new_group_enforce_role`'s default, as in Marathon. Existing services keep their roles. The
 * root keeps its version; the core makes the change (`setEnforceRole`).
 */
export function patchGroup(deps: ApiDeps, req: GroupWrite, reply: FastifyReply): FastifyReply {
  const body = readGroupPartialUpdate(req.body);
  const groupId = groupIdOf(req.rest);
  if (!isTopLevel(groupId)) throw objectNotValid([{ path: '/', errors: [NOT_TOP_LEVEL_MESSAGE] }]);
  if (findGroup(deps.scheduler.root(), groupId) === undefined) throw notFound(notFoundText.group(groupId));
  expectOk(deps.submit({ type: 'setEnforceRole', groupId, ...(body.enforceRole !== undefined ? { enforceRole: body.enforceRole } : {}) }), deps.config.maxRunningDeployments);
  return reply.code(200).send();
}

/**
 * The group a POST or PUT body applies to: the body's `id` resolved against the URL's group, or
 * the URL's group (Marathon's `effectivePath`). An invalid id → 422 at `/id`.
 */
export function targetGroupId(rest: string, body: Pick<GroupUpdateBody, 'id'>): string {
  const base = groupIdOf(rest);
  // The URL's path is absolute: `/v2/groups/a/../b` is refused, not read as `/b`.
  const urlErrors = validatePathId(`/${rest}`, { allowRoot: true });
  if (urlErrors.length > 0) throw objectNotValid([{ path: '/', errors: urlErrors }]);
  if (body.id === undefined) return base;
  const idErrors = validatePathId(body.id, { allowRoot: true });
  if (idErrors.length > 0) throw objectNotValid([{ path: '/id', errors: idErrors }]);
  const resolved = resolvePathId(body.id, base);
  // A relative id adds the URL's length and depth (docs/limits.md).
  const limitErrors = validatePathId(resolved, { allowRoot: true });
  if (limitErrors.length > 0) throw objectNotValid([{ path: '/id', errors: limitErrors }]);
  return resolved;
}
