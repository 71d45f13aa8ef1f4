import type { CoreContext } from '../core-context';
import { findRunSpec } from '../groups/tree-query';
import { stampVersions } from '../groups/versioning';
import { isoTime } from '../kernel/iso-time';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';

/**
 * `/v2/apps/{id}/restart` (and pods): the same definition under a new version whose
 * `lastConfigChangeAt` moves, so the planner makes a RestartApplication/RestartPod action and
 * every instance is replaced within the upgrade strategy. Refused while a deployment holds the run
 * spec, unless `force`.
 */
export function restartRunSpec(ctx: CoreContext, runSpecId: string, force: boolean): CommandResult {
  const spec = findRunSpec(ctx.state.root, runSpecId);
  if (spec === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  const version = isoTime(ctx.clock.nowMs());
  const restarted = stampVersions(spec, spec, version, 'restart');
  return deployChange(ctx, ctx.groups.putRunSpec(ctx.state.root, restarted, version), force, runSpecId);
}
