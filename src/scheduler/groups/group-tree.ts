import { assert } from '../kernel/assert';
import type { NewGroupEnforceRole } from './change-options';
import type { Group } from './group';
import { noteEdit } from './map-edits';
import { PathMap } from './path-map';
import { ROOT_ID, comparePathIds, isTopLevel, joinSegments, parentOf, segments } from './path-id';

/*
 * Path copying for the immutable group tree: a change rebuilds the groups from the changed one up
 * to the root and shares every other subtree. Children maps stay sorted by id, so iteration order
 * is a function of the content alone.
 */

/**
 * The version of the root before any change: the epoch, as Marathon's `RootGroup.empty`
 * (`Timestamp(0)`). Every change stamps a version strictly after the current root's
 * (`version-after.ts`), so the first change of a fresh pacer is stamped with the clock's now
 * whatever instant pacer started at.
 */
export const EMPTY_ROOT_VERSION = '1970-01-01T00:00:00.000Z';

/** An empty root group (`/`) at `version`: no apps, pods, subgroups or dependencies. */
export function emptyRoot(version: string): Group {
  return { id: ROOT_ID, apps: new Map(), pods: new Map(), groups: new Map(), dependencies: [], enforceRole: false, version };
}

/** A new empty group; top-level ones get `enforceRole` from `--new_group_enforce_role`. */
export function newGroup(id: string, version: string, newGroupEnforceRole: NewGroupEnforceRole): Group {
  return {
    id, apps: new Map(), pods: new Map(), groups: new Map(), dependencies: [],
    enforceRole: isTopLevel(id) && newGroupEnforceRole === 'top', version,
  };
}

/**
 * The root with the group `groupId` replaced by `fn(existing)`; `fn` gets undefined when the group
 * does not exist, and missing groups on the way down are created empty (`mkdir -p`). Versions are
 * left alone ({@link stampTree} does that).
 */
export function withGroupAt(
  root: Group, groupId: string, fn: (existing: Group | undefined) => Group, newGroupEnforceRole: NewGroupEnforceRole,
): Group {
  const parts = segments(groupId);
  const path: Group[] = [root];
  for (let n = 1; n < parts.length; n++) {
    const id = joinSegments(parts.slice(0, n));
    path.push(path[n - 1].groups.get(id) ?? newGroup(id, root.version, newGroupEnforceRole));
  }
  const existing = parts.length === 0 ? root : path[parts.length - 1].groups.get(groupId);
  let child = fn(existing);
  if (child.id !== groupId) assert(false, `a group change must keep the id ${groupId} (got ${child.id})`);
  if (parts.length === 0) return child;
  for (let n = parts.length - 1; n >= 0; n--) {
    const parent = path[n];
    child = { ...parent, groups: mapWith(parent.groups, child.id, child) };
  }
  return child;
}

/** The tree with `version` on every group (Marathon stamps the whole tree on each root change). */
export function stampTree(group: Group, version: string): Group {
  let groups = group.groups;
  let changed = group.version !== version;
  if (group.groups.size > 0) {
    const next = new Map<string, Group>();
    for (const [id, child] of group.groups) {
      const stamped = stampTree(child, version);
      if (stamped !== child) changed = true;
      next.set(id, stamped);
    }
    groups = next;
  }
  return changed ? { ...group, groups, version } : group;
}

/**
 * `map` with `key` set to `value`, keys kept in path id order. The new map remembers that it is
 * `map` with `key` edited (map-edits.ts), so that a diff of the two reads only that key. It is a
 * {@link PathMap}: the edit copies one chunk of at most 64 entries, not the whole map.
 */
export function mapWith<V>(map: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> {
  const next = PathMap.from(map).with(key, value);
  noteEdit(next, map, key);
  return next;
}

/** `map` without `key` (remembered as an edit of `map`, as {@link mapWith}). */
export function mapWithout<V>(map: ReadonlyMap<string, V>, key: string): ReadonlyMap<string, V> {
  const base = PathMap.from(map);
  // A new map even when `key` is absent, as before (the edit is remembered on it).
  const next = base.has(key) ? base.without(key) : PathMap.from(new Map(base));
  noteEdit(next, map, key);
  return next;
}

/**
 * A group (and its subtree) in the tree's canonical form: maps keyed by their values' ids and
 * sorted, every child a direct child, `enforceRole` only on top-level groups. A child in the wrong
 * place is a programmer error (assert).
 */
export function normalizeGroup(group: Group): Group {
  const check = (childId: string, key: string): void => {
    if (childId !== key) assert(false, `group ${group.id}: child keyed ${key} has id ${childId}`);
    if (!(group.id !== childId && parentOf(childId) === group.id)) assert(false, `${childId} is not a direct child of ${group.id}`);
  };
  for (const [k, a] of group.apps) check(a.id, k);
  for (const [k, p] of group.pods) check(p.id, k);
  for (const [k, g] of group.groups) check(g.id, k);
  return {
    ...group,
    apps: sortedMap(group.apps),
    pods: sortedMap(group.pods),
    groups: new Map([...group.groups].map(([k, g]) => [k, normalizeGroup(g)] as const).sort((a, b) => comparePathIds(a[0], b[0]))),
    enforceRole: group.id !== ROOT_ID && isTopLevel(group.id) ? group.enforceRole : false,
  };
}

function sortedMap<V>(map: ReadonlyMap<string, V>): ReadonlyMap<string, V> {
  return new Map([...map].sort((a, b) => comparePathIds(a[0], b[0])));
}
