import type { CommandContext } from './command-context';
import type { GroupFailure, GroupResult } from '../groups/group-result';
import type { CommandResult } from '../model/inputs';
import { deployResult } from './deploy-result';
import { notValid } from '../groups/validation-detail';

/**
 * Deploys a changed root, or reports why the change was refused (namespace conflict, unknown id).
 * `groupId`: the group the command addressed, named by its group change events
 * (`groups/changed-group-id.ts`).
 */
export function deployChange(ctx: CommandContext, change: GroupResult, force: boolean, groupId: string): CommandResult {
  if (!change.ok) return refusedChange(change);
  return deployResult(ctx.deployments.deploy(ctx, change.root, force, groupId));
}

/**
 * A refused tree change as a command result: an unknown id is `unknown-run-spec` (404); a revert
 * to a version without the group is `illegal-argument`; a group scale past `MAX_INSTANCES` is
 * `invalid` at `/scaleBy`; a new parent group ending in a reserved keyword is `invalid` at `/id`
 * (as Marathon reports the reserved last segment); anything else (an id shared by a group, an app or a pod; a group that is
 * not top-level) is a validation failure, `invalid` with the message at `/` (fact 76: Marathon
 * answers 422 "Object is not valid", not 409).
 */
export function refusedChange(failure: GroupFailure): Extract<CommandResult, { ok: false }> {
  if (failure.error === 'unknown-run-spec' || failure.error === 'unknown-group') {
    return { ok: false, error: 'unknown-run-spec', message: failure.message };
  }
  if (failure.error === 'unavailable-version') return { ok: false, error: 'illegal-argument', message: failure.message };
  if (failure.error === 'reserved-group') {
    return notValid({ path: '/id', errors: [failure.message] });
  }
  if (failure.error === 'too-many-instances') {
    return notValid({ path: '/scaleBy', errors: [failure.message] });
  }
  return notValid({ path: '/', errors: [failure.message] });
}
