import { newGroup, updateGroup, type ChangeOptions, type Group } from '../../../scheduler/index';
import { groupChangeError } from './group-change-error';
import type { ResolvedGroupUpdate } from './resolve-group-update';

/**
 * The root with a structural group update applied (Marathon's group structure update, fact 70):
 * the group is created with missing parents if needed; `apps` given replace the group's apps
 * (apps left out are removed); `groups` given replace its subgroups (a listed existing subgroup is
 * updated the same way, recursively; unlisted ones are removed with everything in them); fields
 * left out keep their values; pods are never changed by the update itself. Throws the catalogue's
 * error when ids clash (fact 76).
 */
export function applyGroupUpdate(root: Group, update: ResolvedGroupUpdate, options: ChangeOptions): Group {
  const result = updateGroup(root, update.id, (group) => applyTo(group, update, options), options);
  if (!result.ok) throw groupChangeError(result);
  return result.root;
}

function applyTo(group: Group, update: ResolvedGroupUpdate, options: ChangeOptions): Group {
  return {
    ...group,
    apps: update.apps === undefined ? group.apps : new Map(update.apps.map((app) => [app.id, app] as const)),
    groups: update.groups === undefined ? group.groups : new Map(update.groups.map((child) => {
      const existing = group.groups.get(child.id) ?? newGroup(child.id, options.version, options.newGroupEnforceRole);
      return [child.id, applyTo(existing, child, options)] as const;
    })),
    dependencies: update.dependencies ?? group.dependencies,
    enforceRole: update.enforceRole ?? group.enforceRole,
  };
}
