import type { CommandContext } from './command-context';
import { findRunSpec } from '../groups/tree-query';
import { validateRole } from '../groups/role-rules';
import { stampVersions } from '../groups/versioning';
import { parseIsoTime } from '../kernel/iso-time';
import type { CommandResult } from '../model/inputs';
import type { RunSpec } from '../model/run-spec';
import { sameConfig } from '../model/same-config';
import { deployChange } from './deploy-change';
import { versionAfter } from './version-after';

/**
 * Create or update a run spec: a new root with it, deployed as a plan (Start + Scale for a new
 * one, Scale for a scale-only change, Restart for anything else). Refused while a deployment holds
 * the run spec, unless `force`. The role is checked against the tree (spec 2.7, section 7): a role
 * outside the allowed set, and a role change of a resident run spec without `force`, are refused
 * with the `/role` detail.
 *
 * Versions (Marathon's `GroupVersioningUtil`): a scale-only change keeps `lastConfigChangeAt`; an
 * unchanged definition keeps the stored run spec as it is, version included (fact 46), while the
 * root still moves to a new version, strictly later than the current one, so that no older root
 * history entry is overwritten. A changed run spec's version becomes the root's; one stamped
 * before the current root (a clock that went back) is stamped again 1 ms after it, so root
 * versions never go back. (A change stamped in the same millisecond as the current root keeps that
 * version and replaces the root history entry of that millisecond, as before.)
 */
export function putRunSpec(ctx: CommandContext, spec: RunSpec, force: boolean): CommandResult {
  const root = ctx.state.root;
  const before = findRunSpec(root, spec.id);
  const roleError = validateRole(root, spec, ctx.options.defaultRole, before, { newGroupEnforceRole: ctx.options.newGroupEnforceRole, force });
  if (roleError !== undefined) return { ok: false, error: 'invalid', message: 'Object is not valid', details: [roleError] };
  if (before !== undefined && before.kind === spec.kind && sameConfig(before, spec) && before.instances === spec.instances) {
    return deployChange(ctx, ctx.groups.withRunSpec(root, before, versionAfter(ctx.clock.nowMs(), root.version)), force, spec.id);
  }
  const kept = before !== undefined && sameConfig(before, spec) ? keepConfigVersion(spec, before) : spec;
  const stamped = notBefore(kept.version, root.version) ? kept : stampVersions(before, kept, versionAfter(ctx.clock.nowMs(), root.version));
  return deployChange(ctx, ctx.groups.withRunSpec(root, stamped, stamped.version), force, spec.id);
}

function keepConfigVersion(spec: RunSpec, before: RunSpec): RunSpec {
  const versionInfo = { lastConfigChangeAt: before.versionInfo.lastConfigChangeAt, lastScalingAt: spec.version };
  return { ...spec, versionInfo };
}

/** True unless `version` precedes `other` (either not a timestamp: true, the version is kept as given). */
function notBefore(version: string, other: string): boolean {
  const a = parseIsoTime(version);
  const b = parseIsoTime(other);
  return a === undefined || b === undefined || a >= b;
}
