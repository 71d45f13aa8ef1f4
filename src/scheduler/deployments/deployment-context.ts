import type { GroupOps } from '../groups/group-ops';
import type { CorePorts, InstanceContext } from '../instances/instance-context';

/**
 * What the deployment executor works with: the instance tracker's context and the root-group
 * edits (to roll a cancelled deployment back). It does not see the launch queue (instances wait in
 * the state; the matcher takes them from there) nor the commands above it.
 */
export interface DeploymentContext extends InstanceContext, CorePorts {
  readonly groups: GroupOps;
}
