import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';
import { runSpecChangeGroupId } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';
import { withInstances } from '../groups/versioning';

/**
 * Scale a run spec to `instances`: a scale-only change (ScaleApplication; no restart, backoff kept).
 * A scale to the count it has changes nothing and keeps the stored run spec, version included, as
 * an unchanged PUT does (fact 46, `stampVersions`): a new version there would name, in the root, a
 * version no deployment action brings to the running instances (`/v2/groups` and `/v2/apps` would
 * disagree).
 */
export function scaleRunSpec(ctx: CommandContext, runSpecId: string, instances: number, force: boolean): CommandResult {
  const spec = findRunSpec(ctx.state.root, runSpecId);
  if (spec === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  if (!Number.isInteger(instances) || instances < 0) return { ok: false, error: 'invalid', message: 'instances must be a non-negative integer' };
  const version = versionAfter(ctx.clock.nowMs(), ctx.state.root.version);
  const scaled = spec.instances === instances ? spec : withInstances(spec, instances, version);
  return deployChange(ctx, ctx.groups.withRunSpec(ctx.state.root, scaled, version), force, runSpecChangeGroupId(runSpecId));
}
