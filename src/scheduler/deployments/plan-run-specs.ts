import type { Group } from '../groups/group';
import type { RunSpec } from '../model/run-spec';

/**
 * Every run spec (apps and pods) anywhere in the tree below `root`, keyed by id, in id order.
 * Ids are unique across the tree (groups, apps and pods share one namespace), so no entry hides
 * another. The walk is iterative: a deep tree cannot overflow the call stack.
 */
export function planRunSpecs(root: Group): ReadonlyMap<string, RunSpec> {
  const found: RunSpec[] = [];
  const pending: Group[] = [root];
  for (let group = pending.pop(); group !== undefined; group = pending.pop()) {
    for (const app of group.apps.values()) found.push(app);
    for (const pod of group.pods.values()) found.push(pod);
    for (const child of group.groups.values()) pending.push(child);
  }
  found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return new Map(found.map((spec) => [spec.id, spec]));
}
