import type { ApiDeps } from '../../api-deps';
import type { ConvertContext } from '../../../marathon/convert/convert-context';
import { groupRoleOf } from '../../../marathon/convert/path-id';
import type { AppSpec } from '../../../scheduler/model/app';
import { topLevelOf } from '../../../scheduler/index';
import { findAppGroup } from './app-lookup';

/**
 * The conversion context of an app definition (spec 2.7, facts 109–112):
 *
 * - `defaultRole` is `--mesos_role`;
 * - the group role is enforced when the app's top-level group has `enforceRole`, or, for a
 *   top-level group this change creates, when `--new_group_enforce_role` is `top` (fact 112);
 * - an existing app keeps being accepted with the role it has (fact 111, Marathon's
 *   `RoleSettings.forService` adds the existing role to the valid ones): `previousRole`.
 */
export function appConvertContext(deps: ApiDeps, appId: string, versionIso: string, existing: AppSpec | undefined): ConvertContext {
  const enforced = enforcedGroupRole(deps, appId);
  return {
    defaultRole: deps.config.defaultRole,
    versionIso,
    ...(deps.config.defaultNetworkName !== undefined ? { defaultNetworkName: deps.config.defaultNetworkName } : {}),
    ...(enforced !== undefined ? { enforcedGroupRole: enforced } : {}),
    ...(existing !== undefined ? { previousRole: existing.role } : {}),
  };
}

function enforcedGroupRole(deps: ApiDeps, appId: string): string | undefined {
  const groupRole = groupRoleOf(appId);
  const topId = topLevelOf(appId);
  if (groupRole === undefined || topId === undefined) return undefined;
  const top = findAppGroup(deps, topId);
  const enforce = top === undefined ? deps.config.newGroupEnforceRole === 'top' : top.enforceRole;
  return enforce ? groupRole : undefined;
}
