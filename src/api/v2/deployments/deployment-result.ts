import type { FastifyReply } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { type CommandOk, expectOk } from '../../command-result';
import { internal } from '../../errors';
import type { Command } from '../../../scheduler/model/inputs';

/** Fact 13: the header naming the deployment a request started. */
export const DEPLOYMENT_ID_HEADER = 'Marathon-Deployment-Id';

/** Marathon's DeploymentResult body (fact 13). */
export interface DeploymentResultJson {
  readonly version: string;
  readonly deploymentId: string;
}

/**
 * Submits a deployment-creating command (put, delete, restart, kill-and-scale, a root change, …) and
 * returns the deployment it started. Failures become the catalogue's errors through
 * {@link expectOk} (locked → 409 with the locking deployments, fact 7; too many → 403, fact 8;
 * unknown → 404), so every route that starts a deployment maps core failures the same way.
 */
export function submitDeployment(deps: ApiDeps, command: Command): DeploymentResultJson {
  return deploymentResultOf(expectOk(deps.submit(command), deps.config.maxRunningDeployments));
}

/** The `{version, deploymentId}` of a successful command; a success without them is a bug (500). */
export function deploymentResultOf(ok: CommandOk): DeploymentResultJson {
  if (ok.deploymentId === undefined || ok.version === undefined) throw internal('The change started no deployment');
  return { version: ok.version, deploymentId: ok.deploymentId };
}

/**
 * Answers a DeploymentResult (fact 13): the status, the `Marathon-Deployment-Id` header and
 * `{version, deploymentId}`. The one way every route (apps, groups, tasks, deployments) answers it.
 */
export function sendDeploymentResult(reply: FastifyReply, result: DeploymentResultJson, statusCode = 200): FastifyReply {
  return reply
    .code(statusCode)
    .header(DEPLOYMENT_ID_HEADER, result.deploymentId)
    .send({ version: result.version, deploymentId: result.deploymentId });
}
