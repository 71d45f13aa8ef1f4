import type { FastifyReply } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { type CommandOk, expectOk } from '../../command-result';
import { internal } from '../../errors';
import type { Group } from '../../../scheduler/groups/group';

/** Fact 13: the header naming the deployment a request started. */
export const DEPLOYMENT_ID_HEADER = 'Marathon-Deployment-Id';

/** Marathon's DeploymentResult body (fact 13). */
export interface DeploymentResultJson {
  readonly version: string;
  readonly deploymentId: string;
}

/**
 * Submits `root` as the new root group (`{type:'deploy'}`): the core plans and starts the
 * deployment. Failures become the catalogue's errors through {@link expectOk} (locked → 409 with
 * the locking deployments, fact 7; too many → 403, fact 8). `force` stops conflicting deployments.
 */
export function deployRoot(deps: ApiDeps, root: Group, force: boolean): DeploymentResultJson {
  return deploymentResultOf(expectOk(deps.submit({ type: 'deploy', root, force }), deps.config.maxRunningDeployments));
}

/** The `{version, deploymentId}` of a successful command; a success without them is a bug (500). */
export function deploymentResultOf(ok: CommandOk): DeploymentResultJson {
  if (ok.deploymentId === undefined || ok.version === undefined) throw internal('The change started no deployment');
  return { version: ok.version, deploymentId: ok.deploymentId };
}

/** Answers a DeploymentResult: the status, the `Marathon-Deployment-Id` header and `{version, deploymentId}`. */
export function sendDeploymentResult(reply: FastifyReply, result: DeploymentResultJson, statusCode = 200): FastifyReply {
  return reply.code(statusCode).header(DEPLOYMENT_ID_HEADER, result.deploymentId).send(result);
}
