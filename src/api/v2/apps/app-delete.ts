import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { notFoundBare, notFoundText } from '../../errors';
import { queryBool, type Query } from '../../query';
import { findApp } from './app-lookup';
import { publishApiPostEvent } from './api-post-event';
import { sendDeploymentResult, submitDeployment } from '../deployments/deployment-result';

/**
 * `DELETE /v2/apps/{id}` (fact 49): a StopApplication deployment; 200 `{version, deploymentId}`.
 * `force` defaults to true here (fact 14), so a running deployment of the app is canceled
 * instead of answering 409. Unknown → 404 without `details` (fact 2). Publishes `api_post_event`
 * with the deleted definition (spec section 6: create, update, delete).
 */
export function deleteApp(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, appId: string): FastifyReply {
  const force = queryBool(request.query as Query, 'force', true);
  const app = findApp(deps, appId);
  if (app === undefined) throw notFoundBare(notFoundText.app(appId));
  const started = submitDeployment(deps, { type: 'deleteRunSpec', runSpecId: appId, force });
  publishApiPostEvent(deps, request, app);
  return sendDeploymentResult(reply, started);
}

/**
 * `POST /v2/apps/{id}/restart` (fact 50): a RestartApplication deployment replacing every
 * instance within the upgrade strategy; 200 `{version, deploymentId}`. `force` (default false)
 * overrides a running deployment (409 otherwise, fact 48); unknown → 404 without `details`.
 */
export function restartApp(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, appId: string): FastifyReply {
  const force = queryBool(request.query as Query, 'force', false);
  if (findApp(deps, appId) === undefined) throw notFoundBare(notFoundText.app(appId));
  return sendDeploymentResult(reply, submitDeployment(deps, { type: 'restart', runSpecId: appId, force }));
}
