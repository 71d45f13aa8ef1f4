import type { Group } from './group';
import { type GroupFailure, groupFailure } from './group-result';
import { joinSegments, segments } from './path-id';
import { containsRunSpecs } from './tree-query';

/** Marathon's messages (`state/Group.scala`) for two kinds of thing sharing one id. */
export const APP_GROUP_CONFLICT_MESSAGE = 'Groups and Applications may not have the same identifier.';
export const POD_GROUP_CONFLICT_MESSAGE = 'Groups and Pods may not have the same identifier.';
export const APP_POD_CONFLICT_MESSAGE = 'Applications and Pods may not share the same id';

/** What is about to be written at an id. */
export type NamespaceKind = 'app' | 'pod' | 'group';

/**
 * Why `id` cannot hold a thing of `kind` in `root` (groups, apps and pods share one namespace,
 * fact 76), or undefined when it can:
 *
 * - every ancestor of `id` must be a group (or not exist yet): an app or pod there conflicts;
 * - an app and a pod never share an id;
 * - a group and an app or pod never share an id, except that an app or pod may replace a group
 *   that holds no run spec at all (Marathon's `RootGroup.updateApp` drops such a group).
 *
 * Writing the same kind again at an id is a replacement, not a conflict.
 */
export function namespaceConflict(root: Group, id: string, kind: NamespaceKind): GroupFailure | undefined {
  const parts = segments(id);
  let group: Group = root;
  for (let n = 1; n < parts.length; n++) {
    const ancestorId = joinSegments(parts.slice(0, n));
    if (group.apps.has(ancestorId)) return conflict(APP_GROUP_CONFLICT_MESSAGE);
    if (group.pods.has(ancestorId)) return conflict(POD_GROUP_CONFLICT_MESSAGE);
    const next = group.groups.get(ancestorId);
    if (next === undefined) return undefined;
    group = next;
  }
  if (parts.length === 0) return undefined;
  const sub = group.groups.get(id);
  const busyGroup = sub !== undefined && containsRunSpecs(sub);
  switch (kind) {
    case 'app':
      if (group.pods.has(id)) return conflict(APP_POD_CONFLICT_MESSAGE);
      return busyGroup ? conflict(APP_GROUP_CONFLICT_MESSAGE) : undefined;
    case 'pod':
      if (group.apps.has(id)) return conflict(APP_POD_CONFLICT_MESSAGE);
      return busyGroup ? conflict(POD_GROUP_CONFLICT_MESSAGE) : undefined;
    case 'group':
      if (group.apps.has(id)) return conflict(APP_GROUP_CONFLICT_MESSAGE);
      return group.pods.has(id) ? conflict(POD_GROUP_CONFLICT_MESSAGE) : undefined;
  }
}

/**
 * The first id shared by two children of one group anywhere in `group`'s subtree (Marathon's
 * `noAppsAndPodsWithSameId`, `noAppsAndGroupsWithSameName`, `noPodsAndGroupsWithSameName`), or
 * undefined. Used for whole subtrees handed to {@link namespaceConflict}'s callers.
 */
export function treeConflict(group: Group): GroupFailure | undefined {
  for (const id of group.apps.keys()) {
    if (group.pods.has(id)) return conflict(APP_POD_CONFLICT_MESSAGE);
    if (group.groups.has(id)) return conflict(APP_GROUP_CONFLICT_MESSAGE);
  }
  for (const id of group.pods.keys()) if (group.groups.has(id)) return conflict(POD_GROUP_CONFLICT_MESSAGE);
  for (const child of group.groups.values()) {
    const found = treeConflict(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

function conflict(message: string): GroupFailure {
  return groupFailure('namespace-conflict', message);
}
