import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';
import { runSpecChangeGroupId } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';

/**
 * DELETE of an app or pod: a new root without it, deployed as a StopApplication/StopPod plan.
 * Marathon's app DELETE defaults to `force` (it cancels a running deployment of the app).
 */
export function deleteRunSpecCommand(ctx: CommandContext, runSpecId: string, force: boolean): CommandResult {
  if (findRunSpec(ctx.state.root, runSpecId) === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  const version = versionAfter(ctx.clock.nowMs(), ctx.state.root.version);
  return deployChange(ctx, ctx.groups.withoutRunSpec(ctx.state.root, runSpecId, version), force, runSpecChangeGroupId(runSpecId));
}
