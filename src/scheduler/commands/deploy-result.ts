import type { DeployResult } from '../deployments/deployment-manager';
import type { CommandResult } from '../model/inputs';

/** A deployment manager's answer as a command result. */
export function deployResult(r: DeployResult): CommandResult {
  if (r.ok) return { ok: true, deploymentId: r.deploymentId, version: r.version };
  return refusedDeploy(r);
}

/** A deployment manager's refusal as a command's. */
export function refusedDeploy(r: Extract<DeployResult, { ok: false }>): Extract<CommandResult, { ok: false }> {
  if (r.error === 'locked') return { ok: false, error: 'locked', message: r.message, deployments: r.deployments };
  if (r.error === 'invalid') return { ok: false, error: 'invalid', message: r.message, details: r.details };
  return { ok: false, error: r.error, message: r.message };
}
