import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { conflict } from '../../errors';
import { queryBool, type Query } from '../../query';
import { appDefinitionJson } from '../../../marathon/render/app-definition-json';
import { isoTime } from '../../../scheduler/index';
import { checkAppShape, convertApp, requireBody, withCanonicalIds } from './app-definition';
import { canonicalAppId, findApp } from './app-lookup';
import { publishApiPostEvent } from './api-post-event';
import { DEPLOYMENT_ID_HEADER, submitDeployment } from '../deployments/deployment-result';
import { resourceLocation } from '../../resource-location';

const ZERO_COUNTS = { tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0 };

/**
 * `POST /v2/apps` (facts 17–26): shape, then semantics, then an id that is not taken (409
 * `An app with id [/foo] already exists.`, fact 22, whatever `force` says), then the deployment
 * (the core refuses an id shared with a group or a pod: 422, fact 76).
 * Answers 201 with `Location`, `Marathon-Deployment-Id` and the app with its defaults (empty and
 * unset fields and `versionInfo` left out, fact 18), zero counts and `deployments: [{id}]`;
 * publishes `api_post_event`.
 */
export function createApp(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const query = request.query as Query;
  const force = queryBool(query, 'force', false);
  const body = checkAppShape(requireBody(request.body), 'app');
  const appId = canonicalAppId(String(body.id));
  const versionIso = isoTime(deps.clock.nowMs());
  const spec = convertApp(deps, withCanonicalIds(body, appId), undefined, versionIso);
  if (findApp(deps, appId) !== undefined) throw conflict(`An app with id [${appId}] already exists.`);
  const started = submitDeployment(deps, { type: 'putRunSpec', spec, force });
  const stored = findApp(deps, appId) ?? spec;
  publishApiPostEvent(deps, request, stored, { versionInfo: false });
  // Marathon writes the app as the request normalized it, before the group manager assigns its
  // dynamic service ports (fact 19: `port` 0 here, the assigned port on GET) or versions it, with
  // zero counts (AppsResource.create). The version is the one the core stamped.
  const answered = { ...spec, version: stored.version };
  const json = { ...appDefinitionJson(answered, { versionInfo: false }), ...ZERO_COUNTS, deployments: [{ id: started.deploymentId }] };
  return reply
    .code(201)
    .header('Location', resourceLocation(request, appId))
    .header(DEPLOYMENT_ID_HEADER, started.deploymentId)
    .send(json);
}
