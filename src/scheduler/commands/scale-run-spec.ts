import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';
import { runSpecChangeGroupId } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';
import { withInstances } from '../groups/versioning';

/** Scale a run spec to `instances`: a scale-only change (ScaleApplication; no restart, backoff kept). */
export function scaleRunSpec(ctx: CommandContext, runSpecId: string, instances: number, force: boolean): CommandResult {
  const spec = findRunSpec(ctx.state.root, runSpecId);
  if (spec === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  if (!Number.isInteger(instances) || instances < 0) return { ok: false, error: 'invalid', message: 'instances must be a non-negative integer' };
  const scaled = withInstances(spec, instances, versionAfter(ctx.clock.nowMs(), ctx.state.root.version));
  return deployChange(ctx, ctx.groups.withRunSpec(ctx.state.root, scaled, scaled.version), force, runSpecChangeGroupId(runSpecId));
}
