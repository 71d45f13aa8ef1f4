import type { Group } from '../groups/group';

/** A group as a plan's `original` / `target` carries it: the tree with full run spec definitions. */
export interface GroupJson {
  readonly id: string;
  readonly apps: readonly Readonly<Record<string, unknown>>[];
  readonly pods: readonly Readonly<Record<string, unknown>>[];
  readonly groups: readonly GroupJson[];
  readonly dependencies: readonly string[];
  readonly version: string;
  readonly enforceRole: boolean;
}

/**
 * `group` in Marathon's group wire shape: `{id, apps, pods, groups, dependencies, version,
 * enforceRole}`, where `apps` and `pods` are the run specs' wire definitions (defaults filled in).
 * Children are listed in id order; dependencies as stored.
 */
export function planGroupJson(group: Group): GroupJson {
  return {
    id: group.id,
    apps: sortedById([...group.apps.values()]).map((app) => app.definition),
    pods: sortedById([...group.pods.values()]).map((pod) => pod.definition),
    groups: sortedById([...group.groups.values()]).map(planGroupJson),
    dependencies: [...group.dependencies],
    version: group.version,
    enforceRole: group.enforceRole,
  };
}

function sortedById<T extends { readonly id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
