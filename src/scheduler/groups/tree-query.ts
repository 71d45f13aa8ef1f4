import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
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

/** Every app and pod of the tree, sorted by path id ({@link comparePathIds}). */
export function allRunSpecs(root: Group): RunSpec[] {
  const out: RunSpec[] = [];
  for (const g of allGroups(root)) {
    for (const a of g.apps.values()) out.push(a);
    for (const p of g.pods.values()) out.push(p);
  }
  return out.sort((a, b) => comparePathIds(a.id, b.id));
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
