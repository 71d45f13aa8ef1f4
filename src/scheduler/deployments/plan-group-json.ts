import type { Group } from '../groups/group';
import type { PlanGroupJson } from '../model/events';

/** A group as a plan's `original` / `target` carries it: the tree with full run spec definitions. */
export type GroupJson = PlanGroupJson;

/**
 * Groups are immutable and a change rebuilds only the groups on its path, so the JSON of every
 * other group is shared between roots: computed once per group object, not once per event.
 */
const rendered = new WeakMap<Group, GroupJson>();

/**
 * `group` in Marathon's group wire shape: `{id, apps, pods, groups, dependencies, version,
 * enforceRole}`, where `apps` and `pods` are the run specs' wire definitions (defaults filled in).
 * Children are listed in id order; dependencies as stored. The result is shared (do not mutate).
 */
export function planGroupJson(group: Group): GroupJson {
  const cached = rendered.get(group);
  if (cached !== undefined) return cached;
  const json: GroupJson = {
    id: group.id,
    apps: sortedById([...group.apps.values()]).map((app) => app.definition),
    pods: sortedById([...group.pods.values()]).map((pod) => pod.definition),
    groups: sortedById([...group.groups.values()]).map(planGroupJson),
    dependencies: [...group.dependencies],
    version: group.version,
    enforceRole: group.enforceRole,
  };
  rendered.set(group, json);
  return json;
}

function sortedById<T extends { readonly id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
