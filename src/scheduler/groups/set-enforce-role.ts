import type { Group } from './group';
import { type GroupResult, groupFailure } from './group-result';
import { withGroupAt } from './group-tree';
import { isTopLevel } from './path-id';
import { NOT_TOP_LEVEL_MESSAGE } from './role-rules';
import { findGroup } from './tree-query';

/**
 * Sets `enforceRole` of a top-level group (`PATCH /v2/groups/<id>`, spec 2.7 rule 4, fact 72).
 * As in Marathon the change creates no new version: the root and the group keep theirs, and no
 * deployment follows. Existing run specs keep their roles (rule 5: only new services are held to
 * the group role). Refused with `not-top-level` (checked first, as Marathon does) or
 * `unknown-group`.
 */
export function setEnforceRole(root: Group, groupId: string, value: boolean): GroupResult {
  if (!isTopLevel(groupId)) return groupFailure('not-top-level', NOT_TOP_LEVEL_MESSAGE);
  const group = findGroup(root, groupId);
  if (group === undefined) return groupFailure('unknown-group', `Group '${groupId}' does not exist`);
  if (group.enforceRole === value) return { ok: true, root };
  return { ok: true, root: withGroupAt(root, groupId, () => ({ ...group, enforceRole: value }), 'off') };
}
