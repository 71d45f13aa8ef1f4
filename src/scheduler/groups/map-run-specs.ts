import type { Group } from './group';
import type { RunSpec } from '../model/run-spec';
import type { AppSpec } from '../model/app';
import type { PodSpec } from '../model/pod';

/**
 * `group` with every app and pod of its subtree replaced by `fn(spec)` (same id and kind). Groups
 * whose run specs all come back unchanged are shared, not copied.
 */
export function mapRunSpecs(group: Group, fn: (spec: RunSpec) => RunSpec): Group {
  const apps = mapValues(group.apps, (a) => fn(a) as AppSpec);
  const pods = mapValues(group.pods, (p) => fn(p) as PodSpec);
  const groups = mapValues(group.groups, (g) => mapRunSpecs(g, fn));
  return apps === group.apps && pods === group.pods && groups === group.groups ? group : { ...group, apps, pods, groups };
}

function mapValues<V>(map: ReadonlyMap<string, V>, fn: (value: V) => V): ReadonlyMap<string, V> {
  let changed = false;
  const next = new Map<string, V>();
  for (const [key, value] of map) {
    const mapped = fn(value);
    if (mapped !== value) changed = true;
    next.set(key, mapped);
  }
  return changed ? next : map;
}
