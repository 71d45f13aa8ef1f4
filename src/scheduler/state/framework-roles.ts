import type { CorePorts, InstanceContext } from '../instances/instance-context';
import type { DeploymentPlan } from '../model/deployment-plan';
import type { Group } from '../groups/group';
import { findRunSpec } from '../groups/tree-query';

/**
 * The roles the framework needs: the default role, the role of every run spec in the root, and
 * every role live instances run under (a resident instance keeps its old role after a forced role
 * change, fact 114), sorted. O(run specs + roles): the tree is walked in any order (the set is
 * sorted), and instance roles are counted as they change.
 */
export function rolesInUse(ctx: InstanceContext): string[] {
  const roles = new Set<string>([ctx.options.defaultRole]);
  const groups: Group[] = [ctx.state.root];
  for (let g = groups.pop(); g !== undefined; g = groups.pop()) {
    for (const app of g.apps.values()) roles.add(app.role);
    for (const pod of g.pods.values()) roles.add(pod.role);
    for (const child of g.groups.values()) groups.push(child);
  }
  for (const rs of ctx.state.runSpecs.values()) for (const role of rs.instanceRoles.keys()) roles.add(role);
  return [...roles].sort();
}

/**
 * After an input that may have changed the roles in use (`state.rolesDirty`): when the set differs
 * from what the driver was last told, tells it (`updateFrameworkRoles`, the Mesos UPDATE_FRAMEWORK
 * of spec section 3's role change). Nothing is computed on inputs that cannot change it, such as
 * ordinary status updates.
 */
export function syncFrameworkRoles(ctx: InstanceContext & Pick<CorePorts, 'driver'>): void {
  const state = ctx.state;
  if (!state.rolesDirty) return;
  state.rolesDirty = false;
  const roles = rolesInUse(ctx);
  if (roles.length === state.frameworkRoles.length && roles.every((r, i) => r === state.frameworkRoles[i])) return;
  state.frameworkRoles = roles;
  ctx.driver.updateFrameworkRoles?.(roles);
}

/**
 * Marks the roles dirty when an accepted change touches a run spec's role: one that is new to the
 * framework, or one other than the default role that changed or went away (the set may shrink;
 * the default role is always in it). Cheap: only the plan's
 * affected run specs are looked at, so changes that keep every role cost no recomputation — a
 * new run spec with a role the framework already has included (the recomputation reads every
 * run spec of the tree).
 */
export function noteRoleChanges(ctx: InstanceContext, plan: DeploymentPlan, original: Group, target: Group): void {
  const known = ctx.state.frameworkRoles;
  for (const id of plan.affectedRunSpecIds) {
    const before = findRunSpec(original, id)?.role;
    const after = findRunSpec(target, id)?.role;
    // A role that changed or went away may leave the set, unless it is the default role, which
    // is always in it: deleting an app of the default role costs no walk of every app.
    const mayGo = before !== undefined && before !== after && before !== ctx.options.defaultRole;
    if (mayGo || (after !== undefined && !known.includes(after))) {
      ctx.state.rolesDirty = true;
      return;
    }
  }
}
