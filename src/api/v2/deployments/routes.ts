import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { expectOk } from '../../command-result';
import { notFound, notFoundText } from '../../errors';
import { type Query, queryAll, queryBool } from '../../query';
import { deploymentsJson } from '../../render/deployment-info-json';
import { deploymentResultOf, sendDeploymentResult } from './deployment-result';

/**
 * `/v2/deployments` (facts 59–64):
 *
 * - `GET /v2/deployments` → 200, the running deployments (`[]` when none); `?embed=waitingFor`
 *   adds pacer's "why it waits" to each current action;
 * - `DELETE /v2/deployments/{id}` → 200 + `Marathon-Deployment-Id` + `{version, deploymentId}` of
 *   a new rollback deployment (fact 62); with `force=true` the deployment is just stopped, nothing
 *   is rolled back: 202 with no body (fact 63); an unknown id → 404
 *   `DeploymentPlan <id> does not exist` with `details: []` (fact 64).
 */
export function deploymentsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/deployments', async (req) => {
    return deploymentsJson(deps, { waitingFor: embedsWaitingFor(req.query as Query) });
  });

  app.delete<{ Params: { id: string } }>('/v2/deployments/:id', async (req, reply) => {
    const { id } = req.params;
    const force = queryBool(req.query as Query, 'force', false);
    if (!deps.scheduler.runningPlans().some((plan) => plan.id === id)) throw notFound(notFoundText.deployment(id));
    const ok = expectOk(deps.submit({ type: 'cancelDeployment', deploymentId: id, force }), deps.config.maxRunningDeployments);
    if (force) return reply.code(202).send();
    return sendDeploymentResult(reply, deploymentResultOf(ok));
  });
}

/** `embed=waitingFor` (repeatable, comma-separated values allowed). */
function embedsWaitingFor(query: Query): boolean {
  return queryAll(query, 'embed').some((v) => v.split(',').some((part) => part.trim() === 'waitingFor'));
}
