import type { AppSpec } from '../model/app';
import type { ChangeOptions } from './change-options';
import type { Group } from './group';
import type { GroupResult } from './group-result';
import { newGroup } from './group-tree';
import { reservedNewGroup } from './reserved-new-group';
import { findRunSpec } from './tree-query';
import { updateGroup } from './update-group';
import { stampVersions } from './versioning';

/**
 * A structural group update as the API hands it to the core (Marathon's `GroupUpdate`, fact 70),
 * already checked and converted: absolute ids, apps as the run-spec model (their versions are the
 * core's to stamp). A field left out (undefined) keeps the group's value.
 */
export interface GroupUpdate {
  readonly id: string;
  /** When given, the group's apps are exactly these (apps left out are removed, fact 70). */
  readonly apps?: readonly AppSpec[];
  /** When given, the group's subgroups are exactly these (others are removed, fact 70). */
  readonly groups?: readonly GroupUpdate[];
  readonly dependencies?: readonly string[];
  /** Only read on top-level groups (spec 2.7 rule 4). */
  readonly enforceRole?: boolean;
}

/**
 * The root with a structural group update applied (Marathon's group structure update, fact 70):
 * the group is created with missing parents if needed; `apps` given replace the group's apps
 * (apps left out are removed); `groups` given replace its subgroups (a listed existing subgroup is
 * updated the same way, recursively; unlisted ones are removed with everything in them); fields
 * left out keep their values; pods are never changed by the update itself. Every app is stamped
 * against the app of the same id in `root` ({@link stampVersions}: an unchanged app keeps its
 * version and is not restarted). Refused with `namespace-conflict` when ids clash (fact 76), and
 * with `reserved-group` when a missing parent of the group would end in a reserved keyword
 * ({@link reservedNewGroup}).
 */
export function applyGroupUpdate(root: Group, update: GroupUpdate, options: ChangeOptions): GroupResult {
  const reserved = reservedNewGroup(root, update.id);
  if (reserved !== undefined) return reserved;
  const stamp = (app: AppSpec): AppSpec => {
    const previous = findRunSpec(root, app.id);
    return stampVersions(previous?.kind === 'app' ? previous : undefined, app, options.version) as AppSpec;
  };
  return updateGroup(root, update.id, (group) => applyTo(group, update, options, stamp), options);
}

function applyTo(group: Group, update: GroupUpdate, options: ChangeOptions, stamp: (app: AppSpec) => AppSpec): Group {
  return {
    ...group,
    apps: update.apps === undefined ? group.apps : new Map(update.apps.map((app) => [app.id, stamp(app)] as const)),
    groups: update.groups === undefined ? group.groups : new Map(update.groups.map((child) => {
      const existing = group.groups.get(child.id) ?? newGroup(child.id, options.version, options.newGroupEnforceRole);
      return [child.id, applyTo(existing, child, options, stamp)] as const;
    })),
    dependencies: update.dependencies ?? group.dependencies,
    enforceRole: update.enforceRole ?? group.enforceRole,
  };
}
