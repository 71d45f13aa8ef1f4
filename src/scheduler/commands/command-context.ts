import type { DeploymentContext } from '../deployments/deployment-context';
import type { DeploymentManager } from '../deployments/deployment-manager';

/** What the commands work with: the deployment executor's context and the executor itself. */
export interface CommandContext extends DeploymentContext {
  readonly deployments: DeploymentManager;
}
