import type { CoreContext } from '../core-context';
import { findRunSpec } from '../groups/tree-query';
import { validateRole } from '../groups/role-rules';
import type { CommandResult } from '../model/inputs';
import type { RunSpec } from '../model/run-spec';
import { sameConfig } from './same-config';
import { deployChange } from './deploy-change';

/**
 * Create or update a run spec: a new root with it, deployed as a plan (Start + Scale for a new
 * one, Scale for a scale-only change, Restart for anything else). A scale-only change keeps
 * `lastConfigChangeAt`. Refused while a deployment holds the run spec, unless `force`. The role is
 * checked against the tree (spec 2.7, section 7): a role outside the allowed set, and a role change
 * of a resident run spec without `force`, are refused with the `/role` detail.
 */
export function putRunSpec(ctx: CoreContext, spec: RunSpec, force: boolean): CommandResult {
  const root = ctx.state.root;
  const before = findRunSpec(root, spec.id);
  const roleError = validateRole(root, spec, ctx.options.defaultRole, before, { newGroupEnforceRole: ctx.options.newGroupEnforceRole, force });
  if (roleError !== undefined) return { ok: false, error: 'invalid', message: 'Object is not valid', details: [roleError] };
  const stamped = before !== undefined && sameConfig(before, spec) ? keepConfigVersion(spec, before) : spec;
  return deployChange(ctx, ctx.groups.putRunSpec(root, stamped, stamped.version), force, spec.id);
}

function keepConfigVersion(spec: RunSpec, before: RunSpec): RunSpec {
  const versionInfo = { lastConfigChangeAt: before.versionInfo.lastConfigChangeAt, lastScalingAt: spec.version };
  const definition = spec.kind === 'app' ? { ...spec.definition, versionInfo } : spec.definition;
  return { ...spec, versionInfo, definition };
}
