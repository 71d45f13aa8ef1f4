import type { ApiDeps } from '../../api-deps';
import { objectNotValid } from '../../errors';
import { GROUP_UPDATE_FIELDS, type GroupUpdateBody } from '../../schemas/group-update';
import { CYCLIC_DEPENDENCIES_MESSAGE, dependencyCycle, type ChangeOptions, type Group } from '../../../scheduler/index';
import { applyGroupUpdate } from './apply-group-update';
import { canonicalVersion } from './next-version';
import { ONLY_OPTION_MESSAGE } from './only-option';
import { resolveGroupUpdate } from './resolve-group-update';
import { revertGroup } from './revert-group';
import { scaleGroup } from './scale-group';


/** What a group change needs besides the body. */
export interface GroupChangeInput {
  readonly deps: ApiDeps;
  /** The group the body applies to (absolute). */
  readonly groupId: string;
  /** The version the change writes. */
  readonly version: string;
  readonly force: boolean;
}

/**
 * The root after applying a `GroupUpdate` body to the current root, without deploying it
 * (Marathon's GroupApiService.updateGroup, fact 71): `{"version": v}` reverts the group to a
 * stored version, `{"scaleBy": f}` scales its apps, anything else is a structural update. Either
 * special field must come alone (422 `not allowed in conjunction with other properties.` at its
 * path). A target whose dependencies form a cycle is refused (fact 74: 422 at `/` with
 * `Dependency graph has cyclic dependencies.`). Throws the catalogue's errors.
 */
export function groupChange(body: GroupUpdateBody, input: GroupChangeInput): Group {
  checkOnlyOption(body);
  const root = input.deps.scheduler.root();
  const options: ChangeOptions = { version: input.version, newGroupEnforceRole: input.deps.config.newGroupEnforceRole };
  const target = changedRoot(root, body, input, options);
  if (dependencyCycle(target) !== undefined) throw objectNotValid([{ path: '/', errors: [CYCLIC_DEPENDENCIES_MESSAGE] }]);
  return target;
}

function changedRoot(root: Group, body: GroupUpdateBody, input: GroupChangeInput, options: ChangeOptions): Group {
  if (body.version !== undefined) {
    // readGroupUpdate accepted only parsable dates.
    const version = canonicalVersion(body.version) as string;
    return revertGroup(root, input.groupId, version, input.deps.scheduler.rootVersion(version), options);
  }
  if (body.scaleBy !== undefined) return scaleGroup(root, input.groupId, body.scaleBy, options);
  const resolved = resolveGroupUpdate(body, input.groupId, {
    deps: input.deps, root, versionIso: input.version, force: input.force, newGroupEnforceRole: options.newGroupEnforceRole,
  });
  return applyGroupUpdate(root, resolved, options);
}

function checkOnlyOption(body: GroupUpdateBody): void {
  const defined = GROUP_UPDATE_FIELDS.filter((f) => body[f] !== undefined).length;
  const errors = (['version', 'scaleBy'] as const)
    .filter((f) => body[f] !== undefined && defined > 1)
    .map((f) => ({ path: `/${f}`, errors: [ONLY_OPTION_MESSAGE] }));
  if (errors.length > 0) throw objectNotValid(errors);
}
