import type { RemoveOptions } from './change-options';
import { assert } from '../kernel/assert';
import type { Group } from './group';
import { type GroupResult, groupFailure } from './group-result';
import { emptyRoot, mapWithout, stampTree, withGroupAt } from './group-tree';
import { ROOT_ID, parentOf } from './path-id';
import { findGroup } from './tree-query';

/**
 * Removes a group with everything below it, pods included (Marathon's `RootGroup.removeGroup`,
 * fact 75). Removing `/` empties the whole tree (`DELETE /v2/groups`). The new root and every
 * group in it carry `options.version`. Refused with `unknown-group` (`Group '/x' does not exist`) when
 * there is no such group.
 */
export function removeGroup(root: Group, groupId: string, options: RemoveOptions): GroupResult {
  if (groupId === ROOT_ID) return { ok: true, root: emptyRoot(options.version) };
  if (findGroup(root, groupId) === undefined) return groupFailure('unknown-group', `Group '${groupId}' does not exist`);
  const next = withGroupAt(root, parentOf(groupId), (parent) => {
    if (parent === undefined) assert(false, `the parent of ${groupId} exists`);
    return { ...parent, groups: mapWithout(parent.groups, groupId) };
  }, 'off');
  return { ok: true, root: stampTree(next, options.version) };
}
