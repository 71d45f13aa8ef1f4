import type { CommandContext } from './command-context';
import type { ChangeOptions } from '../groups/change-options';
import type { Group } from '../groups/group';
import { applyGroupUpdate } from '../groups/group-update';
import type { GroupResult } from '../groups/group-result';
import { removeGroup } from '../groups/remove-group';
import { revertGroup } from '../groups/revert-group';
import { scaleGroup } from '../groups/scale-group';
import { reservedNewGroup } from '../groups/reserved-new-group';
import { findRunSpec } from '../groups/tree-query';
import { stampVersions } from '../groups/versioning';
import type { CommandResult, RootChange } from '../model/inputs';
import type { RunSpec } from '../model/run-spec';
import { refusedChange } from './deploy-change';
import { versionAfter } from '../groups/version-after';

/** The root a change gives, or why the core refuses it (as the command's result). */
export type RootAfter = { readonly ok: true; readonly root: Group } | Extract<CommandResult, { ok: false }>;

/**
 * The root `change` gives when made to the current root, without deploying it: the one place a
 * root change of the groups and bulk app API is built (issue 12 R2). The new root version is the
 * clock's now, strictly after the current root's ({@link versionAfter}: root versions key the root
 * history, so two changes in one millisecond must not share one); run specs are stamped against
 * what is stored ({@link stampVersions}: an unchanged one keeps its version and is not restarted).
 *
 * Refusals: an unknown group → `unknown-run-spec` (404 `Group '/g' does not exist`); ids shared by
 * a group, an app or a pod → `invalid` at `/` (fact 76); a scale past `MAX_INSTANCES` → `invalid`
 * at `/scaleBy`; a revert to a version without the group → `illegal-argument`. Rules of the
 * whole new root (a dependency cycle, fact 74; service ports; roles) are the deployment manager's,
 * checked when it is deployed or previewed.
 */
export function rootAfter(ctx: CommandContext, change: RootChange): RootAfter {
  const root = ctx.state.root;
  const options: ChangeOptions = { version: versionAfter(ctx.clock.nowMs(), root.version), newGroupEnforceRole: ctx.options.newGroupEnforceRole };
  const result = edit(ctx, root, change, options);
  if (!result.ok) return refusedChange(result);
  return result;
}

function edit(ctx: CommandContext, root: Group, change: RootChange, options: ChangeOptions): GroupResult {
  switch (change.kind) {
    case 'putRunSpecs':
      return putRunSpecs(ctx, root, change.specs, options.version);
    case 'updateGroup':
      return applyGroupUpdate(root, change.update, options);
    case 'revertGroup':
      return revertGroup(root, change.groupId, change.version, ctx.state.history.getRoot(change.version), options);
    case 'scaleGroup':
      return scaleGroup(root, change.groupId, change.factor, options);
    case 'removeGroup':
      return removeGroup(root, change.groupId, options);
  }
}

/**
 * Each run spec put in order, stamped against the one stored under its id in the root built so
 * far (so a later element of a bulk request sees an earlier one, as Marathon applies them); none
 * may create a parent group whose id ends in a reserved keyword ({@link reservedNewGroup}).
 */
function putRunSpecs(ctx: CommandContext, root: Group, specs: readonly RunSpec[], version: string): GroupResult {
  let next = root;
  for (const spec of specs) {
    const reserved = reservedNewGroup(next, spec.id);
    if (reserved !== undefined) return reserved;
    const previous = findRunSpec(next, spec.id);
    const stamped = stampVersions(previous?.kind === spec.kind ? previous : undefined, spec, version);
    const result = ctx.groups.withRunSpec(next, stamped, version);
    if (!result.ok) return result;
    next = result.root;
  }
  return { ok: true, root: next };
}
