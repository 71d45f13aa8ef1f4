import { assert } from '../kernel/assert';
import type { ChangeOptions } from './change-options';
import type { Group } from './group';
import type { GroupResult } from './group-result';
import { newGroup, normalizeGroup, stampTree, withGroupAt } from './group-tree';
import { namespaceConflict, treeConflict } from './namespace-conflict';
import { isCanonical } from './path-id';
import { findGroup } from './tree-query';

/**
 * Replaces the group `groupId` by `fn(group)` (Marathon's `RootGroup.updateGroup`). `fn` receives
 * the existing group, or a new empty one (created with its missing parents, a top-level one with
 * `enforceRole` from `options.newGroupEnforceRole`). `fn` must keep the id; its result is brought
 * to canonical form (sorted maps, `enforceRole` only on top-level groups). The new root and every
 * group in it carry `options.version`.
 *
 * Refused with `namespace-conflict` when the group would be created where an app or pod is, or
 * when `fn` makes two children of one group share an id.
 */
export function updateGroup(root: Group, groupId: string, fn: (group: Group) => Group, options: ChangeOptions): GroupResult {
  if (!isCanonical(groupId)) assert(false, `group id must be canonical: ${groupId}`);
  const existing = findGroup(root, groupId);
  if (existing === undefined) {
    const conflict = namespaceConflict(root, groupId, 'group');
    if (conflict !== undefined) return conflict;
  }
  const updated = fn(existing ?? newGroup(groupId, options.version, options.newGroupEnforceRole));
  if (updated.id !== groupId) assert(false, `updateGroup must keep the id ${groupId} (got ${updated.id})`);
  const conflict = treeConflict(updated);
  if (conflict !== undefined) return conflict;
  const normalized = normalizeGroup(updated);
  return { ok: true, root: stampTree(withGroupAt(root, groupId, () => normalized, options.newGroupEnforceRole), options.version) };
}
