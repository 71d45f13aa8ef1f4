import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import { stampVersions } from '../groups/versioning';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';
import { runSpecChangeGroupId } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';

/**
 * `/v2/apps/{id}/restart` (and pods): the same definition under a new version whose
 * `lastConfigChangeAt` moves, so the planner makes a RestartApplication/RestartPod action and
 * every instance is replaced within the upgrade strategy (fact 50). The version is the clock's now
 * but strictly later than the run spec's versions and the root's, so a restart within the
 * millisecond of the last change still restarts. Refused while a deployment holds the run spec,
 * unless `force`.
 */
export function restartRunSpec(ctx: CommandContext, runSpecId: string, force: boolean): CommandResult {
  const root = ctx.state.root;
  const spec = findRunSpec(root, runSpecId);
  if (spec === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  const version = versionAfter(ctx.clock.nowMs(), root.version, spec.version, spec.versionInfo.lastConfigChangeAt);
  const restarted = stampVersions(spec, spec, version, 'restart');
  return deployChange(ctx, ctx.groups.withRunSpec(root, restarted, version), force, runSpecChangeGroupId(runSpecId));
}
