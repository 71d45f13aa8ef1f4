import { assert } from '../kernel/assert';
import type { ChangeOptions } from './change-options';
import type { Group } from './group';
import type { GroupResult } from './group-result';
import { normalizeGroup, stampTree, withGroupAt } from './group-tree';
import { namespaceConflict, treeConflict } from './namespace-conflict';
import { isCanonical } from './path-id';

/**
 * Adds or replaces a whole group with its subtree (Marathon's `RootGroup.putGroup`, "add or
 * replace"); missing parent groups are created empty (`mkdir -p`), a created top-level parent
 * with `enforceRole` from `options.newGroupEnforceRole`. `group.enforceRole` is kept on a top-level
 * group and dropped (false) below. Putting `/` replaces the whole tree. The new root and every
 * group in it carry `options.version`; run specs inside are stored as given.
 *
 * Refused with `namespace-conflict` when the id or an ancestor is an app or pod, or when two
 * children of one group inside the subtree share an id. A child stored under the wrong key or
 * outside its parent is a programmer error (assert).
 */
export function putGroup(root: Group, group: Group, options: ChangeOptions): GroupResult {
  if (!isCanonical(group.id)) assert(false, `group id must be canonical: ${group.id}`);
  const conflict = namespaceConflict(root, group.id, 'group') ?? treeConflict(group);
  if (conflict !== undefined) return conflict;
  const normalized = normalizeGroup(group);
  const next = withGroupAt(root, group.id, () => normalized, options.newGroupEnforceRole);
  return { ok: true, root: stampTree(next, options.version) };
}
