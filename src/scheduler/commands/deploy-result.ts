import type { DeployResult } from '../deployments/deployment-manager';
import type { CommandResult } from '../model/inputs';

/** A deployment manager's answer as a command result. */
export function deployResult(r: DeployResult): CommandResult {
  if (r.ok) return { ok: true, deploymentId: r.deploymentId, version: r.version };
  return r.error === 'locked' ? { ok: false, error: 'locked', message: r.message, deployments: r.deployments } : { ok: false, error: r.error, message: r.message };
}
