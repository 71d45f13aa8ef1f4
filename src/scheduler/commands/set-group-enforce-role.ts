import type { CommandContext } from './command-context';
import { setEnforceRole } from '../groups/set-enforce-role';
import type { CommandResult } from '../model/inputs';
import { deployResult } from './deploy-result';
import { refusedChange } from './deploy-change';
import { groupChangeGroupId } from '../groups/changed-group-id';

/**
 * `PATCH /v2/groups/{id}` (spec 2.7 rule 4, fact 72): sets `enforceRole` of a top-level group;
 * left out (undefined), the `--new_group_enforce_role` default (`top` → true), as in Marathon.
 * The root keeps its version and existing run specs keep their roles; a changed root is handed to
 * the deployment manager (a plan with nothing to do). Refused with `invalid` at `/` (`Path needs
 * to be top-level`) or `unknown-run-spec` for an unknown group.
 */
export function setGroupEnforceRole(ctx: CommandContext, groupId: string, enforceRole: boolean | undefined): CommandResult {
  const root = ctx.state.root;
  const result = setEnforceRole(root, groupId, enforceRole ?? ctx.options.newGroupEnforceRole === 'top');
  if (!result.ok) return refusedChange(result);
  if (result.root === root) return { ok: true };
  return deployResult(ctx.deployments.deploy(ctx, result.root, false, groupChangeGroupId(groupId)));
}
