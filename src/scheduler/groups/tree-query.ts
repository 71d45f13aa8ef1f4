import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
import { PathMap } from './path-map';
import { ROOT_ID, comparePathIds, isPlainAbsolute, joinSegments, parentOf, segments } from './path-id';

/* Read-only queries over the immutable group tree. */

/** The group with this canonical id (`/` is the root itself), or undefined. O(depth). */
export function findGroup(root: Group, id: string): Group | undefined {
  let g: Group | undefined = root;
  if (isPlainAbsolute(id)) {
    // Hot (every lookup of a run spec by id): each ancestor's id is a prefix of `id` up to a `/`.
    if (id === ROOT_ID) return root;
    for (let at = id.indexOf('/', 1); at > 0 && g !== undefined; at = id.indexOf('/', at + 1)) g = g.groups.get(id.slice(0, at));
    return g?.groups.get(id);
  }
  const parts = segments(id);
  for (let n = 1; n <= parts.length && g !== undefined; n++) g = g.groups.get(joinSegments(parts.slice(0, n)));
  return g;
}

/** The app or pod with this canonical id, or undefined. O(depth). */
export function findRunSpec(root: Group, id: string): RunSpec | undefined {
  if (isPlainAbsolute(id)) {
    if (id === ROOT_ID) return undefined;
    const parent = findGroup(root, parentOf(id));
    return parent?.apps.get(id) ?? parent?.pods.get(id);
  }
  const parts = segments(id);
  if (parts.length === 0) return undefined;
  const parent = findGroup(root, joinSegments(parts.slice(0, -1)));
  return parent?.apps.get(id) ?? parent?.pods.get(id);
}

/**
 * Every app and pod of the tree, sorted by path id ({@link comparePathIds}). The tree keeps each
 * group's maps in path id order (path-map.ts), so the walk merges a group's apps, pods and
 * subgroups in order (a subgroup's run specs all sort between the siblings around the subgroup)
 * and sorts nothing: sorting 10,000 ids took 5–10 ms of the first `GET /v2/apps` after each
 * change (issue 13). A map that is not known to be in order (not a {@link PathMap} made in
 * order: a tree read from the store before its first edit) has its keys checked, and a tree
 * with one out of order is sorted.
 */
export function allRunSpecs(root: Group): RunSpec[] {
  const out: RunSpec[] = [];
  if (pushInOrder(root, out)) return out;
  return out.sort((a, b) => comparePathIds(a.id, b.id));
}

/**
 * The run specs in the order of the walk {@link allRunSpecs} makes, without its sort: path id
 * order when every map of the tree is (exported so that a test can hold the walk to it).
 */
export function walkRunSpecs(root: Group): RunSpec[] {
  const out: RunSpec[] = [];
  pushInOrder(root, out);
  return out;
}

/**
 * Appends the group's run specs, its subgroups' in place among them, each map read in its own
 * order; false when some map of the subtree is not in path id order (the result then needs a sort).
 */
function pushInOrder(group: Group, out: RunSpec[]): boolean {
  let ordered = inPathOrder(group.apps) && inPathOrder(group.pods) && inPathOrder(group.groups);
  if (group.pods.size === 0 && group.groups.size === 0) {
    for (const a of group.apps.values()) out.push(a);
    return ordered;
  }
  const apps = [...group.apps.values()];
  const pods = [...group.pods.values()];
  const groups = [...group.groups.values()];
  let a = 0;
  let p = 0;
  let g = 0;
  while (a < apps.length || p < pods.length || g < groups.length) {
    const app = a < apps.length && (p >= pods.length || comparePathIds(apps[a].id, pods[p].id) < 0) ? apps[a] : undefined;
    const spec = app ?? (p < pods.length ? pods[p] : undefined);
    if (spec !== undefined && (g >= groups.length || comparePathIds(spec.id, groups[g].id) < 0)) {
      out.push(spec);
      if (app !== undefined) a++;
      else p++;
    } else if (!pushInOrder(groups[g++], out)) {
      ordered = false;
    }
  }
  return ordered;
}

/** Whether the map's keys are in path id order: known for a {@link PathMap}, checked for another map. */
function inPathOrder(map: ReadonlyMap<string, unknown>): boolean {
  if (map instanceof PathMap) return map.inPathOrder();
  let last: string | undefined;
  for (const key of map.keys()) {
    if (last !== undefined && comparePathIds(last, key) >= 0) return false;
    last = key;
  }
  return true;
}

/** Every group of the tree, the root included, sorted by path id (so parents come before children). */
export function allGroups(root: Group): Group[] {
  const out: Group[] = [];
  const stack: Group[] = [root];
  for (let g = stack.pop(); g !== undefined; g = stack.pop()) {
    out.push(g);
    for (const child of g.groups.values()) stack.push(child);
  }
  return out.sort((a, b) => comparePathIds(a.id, b.id));
}

/** True when the group holds an app or a pod, directly or in a subgroup. */
export function containsRunSpecs(group: Group): boolean {
  if (group.apps.size > 0 || group.pods.size > 0) return true;
  for (const child of group.groups.values()) if (containsRunSpecs(child)) return true;
  return false;
}
