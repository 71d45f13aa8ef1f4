import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import { stampVersions } from '../groups/versioning';
import { parseIsoTime } from '../kernel/iso-time';
import type { CommandResult } from '../model/inputs';
import type { RunSpec } from '../model/run-spec';
import { deployChange, refusedChange } from './deploy-change';
import { reservedNewGroup } from '../groups/reserved-new-group';
import { runSpecChangeGroupId } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';

/**
 * Create or update a run spec: a new root with it, deployed as a plan (Start + Scale for a new
 * one, Scale for a scale-only change, Restart for anything else). Refused while a deployment holds
 * the run spec, unless `force`. Its role is checked where every root change's roles are, by the
 * deployment manager (`/role`: a role outside the allowed set, a resident `*`, a resident role
 * change without `force`).
 *
 * Versions, as every root change stamps them ({@link versionAfter}): the clock's now (or the
 * version `spec` carries when that is later: the simulator and tests stamp their own), moved to
 * strictly after the current root's, so no root history entry is overwritten, two changes in one
 * millisecond included. The run spec is stamped against the stored one by Marathon's rules
 * ({@link stampVersions}: a scale-only change keeps `lastConfigChangeAt`; an unchanged definition
 * is kept as stored, version included, fact 46). Refused (`invalid` at `/id`) when it would create
 * a parent group whose id ends in a reserved keyword ({@link reservedNewGroup}).
 */
export function putRunSpec(ctx: CommandContext, spec: RunSpec, force: boolean): CommandResult {
  const root = ctx.state.root;
  const reserved = reservedNewGroup(root, spec.id);
  if (reserved !== undefined) return refusedChange(reserved);
  const before = findRunSpec(root, spec.id);
  const version = versionAfter(Math.max(ctx.clock.nowMs(), parseIsoTime(spec.version) ?? 0), root.version);
  const stamped = stampVersions(before?.kind === spec.kind ? before : undefined, spec, version);
  return deployChange(ctx, ctx.groups.withRunSpec(root, stamped, version), force, runSpecChangeGroupId(spec.id));
}
