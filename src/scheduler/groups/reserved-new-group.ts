import type { Group } from './group';
import { type GroupFailure, groupFailure } from './group-result';
import { isReservedSegment, joinSegments, reservedGroupMessage, segments } from './path-id';

/**
 * Why putting something at `id` (a canonical absolute id) would create a parent group whose id
 * ends in a reserved keyword, or undefined. Marathon checks the reserved keywords on an id's last
 * segment only (`state/PathId.scala` `withoutReservedKeywords`, for apps, pods and group bodies
 * alike), so `POST /v2/apps {"id":"/q/tasks/a"}` creates the group `/q/tasks`, an id its own
 * group API refuses (`PUT /v2/groups/q/tasks` is the reserved-keyword 422) and, for `versions`,
 * cannot even show (`GET /v2/groups/q/versions` is `/q`'s version list). pacer refuses instead —
 * a deliberate step past Marathon, taken so that nothing is created the API cannot reach. Only
 * groups that do not exist yet count: a tree stored before this rule keeps working (its run specs
 * can still be updated, and new ones added under such a group), and the rule is checked where a
 * user's change creates run specs and groups (`putRunSpec`, a bulk app update, a group update),
 * not in the tree primitives that a revert or a rollback also uses.
 */
export function reservedNewGroup(root: Group, id: string): GroupFailure | undefined {
  const parts = segments(id);
  let group: Group | undefined = root;
  for (let n = 1; n < parts.length; n++) {
    const ancestorId = joinSegments(parts.slice(0, n));
    group = group?.groups.get(ancestorId);
    if (group === undefined && isReservedSegment(parts[n - 1])) return groupFailure('reserved-group', reservedGroupMessage(ancestorId));
  }
  return undefined;
}
