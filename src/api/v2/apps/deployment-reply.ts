import type { FastifyReply } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { expectOk } from '../../command-result';
import { internal } from '../../errors';
import type { Command } from '../../../scheduler/model/inputs';

/** A deployment the core accepted: its id and the version of the root it deploys. */
export interface DeploymentStarted {
  readonly deploymentId: string;
  readonly version: string;
}

/**
 * Submits a deployment-creating command; a failure becomes the catalogue's error (409 locked,
 * 403 too many deployments, 404 unknown, …) through `expectOk`.
 */
export function submitDeployment(deps: ApiDeps, command: Command): DeploymentStarted {
  const ok = expectOk(deps.submit(command), deps.config.maxRunningDeployments);
  if (ok.deploymentId === undefined || ok.version === undefined) throw internal(`${command.type} started no deployment`);
  return { deploymentId: ok.deploymentId, version: ok.version };
}

/**
 * Fact 13: a request that created a deployment answers with the `Marathon-Deployment-Id` header and
 * the DeploymentResult body `{version, deploymentId}`.
 */
export function sendDeployment(reply: FastifyReply, started: DeploymentStarted, statusCode = 200): FastifyReply {
  return reply
    .code(statusCode)
    .header('Marathon-Deployment-Id', started.deploymentId)
    .send({ version: started.version, deploymentId: started.deploymentId });
}

/**
 * `Location` of a created app. Marathon builds it from the app id alone, resolved against the
 * server root (fact 17: `http://<host>/foo`, not `/v2/apps/foo`).
 */
export function appLocation(host: string, appId: string): string {
  return `http://${host}${appId}`;
}
