import type { Group } from './group';
import { editedFrom } from './map-edits';

/**
 * Every instance a group (the root) asks for: the `instances` of each app and pod in its tree. The bound
 * on it (`--max_total_instances`, {@link SchedulerOptions.maxTotalInstances}) is checked by the
 * deployment manager on every root change; this counts.
 *
 * Counted once per map and group object (all immutable) and kept: a map made from a counted one
 * by one edit (map-edits.ts) is counted from it and the edited entry, and a subtree a change
 * shares with the root before it is not read at all, so a change costs the groups on the path to
 * what it changed, not the size of the tree (issue 13: creating an app among thousands).
 */
export function totalInstances(group: Group): number {
  let total = groupTotals.get(group);
  if (total === undefined) {
    total = mapTotal(group.apps, specTotal) + mapTotal(group.pods, specTotal) + mapTotal(group.groups, totalInstances);
    groupTotals.set(group, total);
  }
  return total;
}

function specTotal(spec: { readonly instances: number }): number {
  return spec.instances;
}

/** The sum of `count` over the values of `map`, kept per map object; from its parent's when it is one edit of a counted map. */
function mapTotal<V>(map: ReadonlyMap<string, V>, count: (value: V) => number): number {
  let total = mapTotals.get(map);
  if (total !== undefined) return total;
  const from = editedFrom(map);
  const before = from === undefined ? undefined : mapTotals.get(from.parent);
  if (from !== undefined && before !== undefined) {
    const was = from.parent.get(from.key);
    const now = map.get(from.key);
    total = before - (was === undefined ? 0 : count(was)) + (now === undefined ? 0 : count(now));
  } else {
    total = 0;
    for (const value of map.values()) total += count(value);
  }
  mapTotals.set(map, total);
  return total;
}

const groupTotals = new WeakMap<Group, number>();
const mapTotals = new WeakMap<ReadonlyMap<string, unknown>, number>();
