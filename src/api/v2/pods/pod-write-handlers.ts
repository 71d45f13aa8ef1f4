import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { type CommandOk, expectOk } from '../../command-result';
import { conflict, notFound, notFoundText } from '../../errors';
import { type Query, queryBool } from '../../query';
import { podDefinitionJson } from '../../../marathon/render/pod-definition-json';
import type { PodSpec } from '../../../scheduler/model/pod';
import { DEPLOYMENT_ID_HEADER } from '../deployments/deployment-result';
import { resourceLocation } from '../../resource-location';
import { publishPodEvent } from './pod-events';
import { existingPod, podSpecFromRequest } from './pod-spec-from-request';

/**
 * `POST /v2/pods` (fact 78): 201 with `Location` (`http://<host>/<pod id>`, as for an app:
 * {@link resourceLocation}), `Marathon-Deployment-Id` and the pod with its defaults as body. An existing pod id → 409 (fact 80). `pod_created_event` on success.
 */
export function createPod(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const force = queryBool(request.query as Query, 'force', false);
  const spec = podSpecFromRequest(deps, request.body, { force });
  if (existingPod(deps, spec.id) !== undefined) throw conflict(`A pod with id [${spec.id}] already exists.`);
  const ok = expectOk(deps.submit({ type: 'putRunSpec', spec, force }), deps.config.maxRunningDeployments);
  publishPodEvent(deps, 'pod_created_event', request);
  // Marathon: `Response.created(new URI(podDef.id))`, resolved as an app's is (PodsResource.create).
  withDeployment(reply, ok).code(201).header('Location', resourceLocation(request, spec.id));
  return podDefinitionJson(stored(deps, spec));
}

/**
 * `PUT /v2/pods/{id}` (fact 84): a full replacement, which also creates a missing pod; always 200
 * with `Marathon-Deployment-Id` and the pod with its defaults. The URL id must equal the body's
 * (400 otherwise). `?force` overrides a running deployment's lock and allows a resident role
 * change. `pod_updated_event` on success.
 */
export function replacePod(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, id: string): Record<string, unknown> {
  const force = queryBool(request.query as Query, 'force', false);
  const spec = podSpecFromRequest(deps, request.body, { pathId: id, force });
  const ok = expectOk(deps.submit({ type: 'putRunSpec', spec, force }), deps.config.maxRunningDeployments);
  publishPodEvent(deps, 'pod_updated_event', request);
  withDeployment(reply, ok).code(200);
  return podDefinitionJson(stored(deps, spec));
}

/**
 * `DELETE /v2/pods/{id}` (fact 85): 202 without a body; the deployment id is in
 * `Marathon-Deployment-Id` and in `Location`. An unknown pod → 404 (details `[]`). `?force`
 * (default false, fact 14) overrides a running deployment's lock. `pod_deleted_event` on success.
 */
export function deletePod(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, id: string): undefined {
  const force = queryBool(request.query as Query, 'force', false);
  if (existingPod(deps, id) === undefined) throw notFound(notFoundText.pod(id));
  const ok = expectOk(deps.submit({ type: 'deleteRunSpec', runSpecId: id, force }), deps.config.maxRunningDeployments);
  publishPodEvent(deps, 'pod_deleted_event', request);
  withDeployment(reply, ok).code(202);
  if (ok.deploymentId !== undefined) reply.header('Location', ok.deploymentId);
  return undefined;
}

function withDeployment(reply: FastifyReply, ok: CommandOk): FastifyReply {
  return ok.deploymentId === undefined ? reply : reply.header(DEPLOYMENT_ID_HEADER, ok.deploymentId);
}

/** The pod as the core stored it (a scale-only change keeps `lastConfigChangeAt`), else as converted. */
function stored(deps: ApiDeps, spec: PodSpec): PodSpec {
  return existingPod(deps, spec.id) ?? spec;
}
