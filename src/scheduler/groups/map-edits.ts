/*
 * Where a map of the group tree (a group's apps, pods or groups) came from. The maps are immutable
 * and a change makes a new one from the old with one key set or removed ({@link mapWith},
 * {@link mapWithout} in group-tree.ts). Comparing the old and the new map entry by entry costs the
 * size of the group — with 10,000 apps in a group, every app created paid 10,000 lookups in the
 * plan's diff and again in the service port rule. Each new map instead remembers the keys edited
 * since its last few ancestors, so that the two maps of one change are compared on those keys only.
 *
 * Ancestors are remembered by a number, not by reference, except the one map a map was made from
 * ({@link editedFrom}), which it keeps until a map is made from it in turn: facts about a map
 * (does an app declare dependencies, which service ports are used) are then worked out from the
 * same facts of that map and the one edited key. So a map keeps at most its parent alive, never a
 * chain. A map whose ancestry is not known (built whole, read from the store, or more than
 * {@link MAX_EDITS} edits away) is read entry by entry as before: the answer never depends on what
 * is remembered, only its cost.
 */

/** How many edits back a map remembers its ancestors (a group change edits its map once or twice). */
export const MAX_EDITS = 8;

interface Edits {
  /** Ids of the maps this one was made from, nearest first. */
  readonly ancestors: readonly number[];
  /** `keys[i]`: the key edited to make the map at distance `i` from this one (0: this one). */
  readonly keys: readonly string[];
}

const editsOf = new WeakMap<ReadonlyMap<string, unknown>, Edits>();
/** The map each map was made from and the key edited, until a map is made from it in turn. */
const parentOf = new WeakMap<ReadonlyMap<string, unknown>, { readonly parent: ReadonlyMap<string, unknown>; readonly key: string }>();
const idOf = new WeakMap<ReadonlyMap<string, unknown>, number>();
let nextId = 0;

/** Records that `next` is `base` with the entry of `key` set or removed. */
export function noteEdit(next: ReadonlyMap<string, unknown>, base: ReadonlyMap<string, unknown>, key: string): void {
  let baseId = idOf.get(base);
  if (baseId === undefined) {
    baseId = nextId++;
    idOf.set(base, baseId);
  }
  const before = editsOf.get(base);
  const ancestors = [baseId];
  const keys = [key];
  if (before !== undefined) {
    const n = Math.min(before.ancestors.length, MAX_EDITS - 1);
    for (let i = 0; i < n; i++) {
      ancestors.push(before.ancestors[i]);
      keys.push(before.keys[i]);
    }
  }
  editsOf.set(next, { ancestors, keys });
  parentOf.set(next, { parent: base, key });
  parentOf.delete(base);
}

/**
 * The map `map` was made from by setting or removing `key`, while `map` has no map made from it
 * (then it lets its parent go); undefined when not known.
 */
export function editedFrom<V>(map: ReadonlyMap<string, V>): { readonly parent: ReadonlyMap<string, V>; readonly key: string } | undefined {
  return parentOf.get(map) as { readonly parent: ReadonlyMap<string, V>; readonly key: string } | undefined;
}

/**
 * The keys whose entries may differ between `from` and `to` (each edit's key; a key may repeat),
 * when `to` was made from `from` by at most {@link MAX_EDITS} edits; `[]` when they are the same
 * map; undefined when that is not known (compare them entry by entry).
 */
export function editedKeys(from: ReadonlyMap<string, unknown>, to: ReadonlyMap<string, unknown>): readonly string[] | undefined {
  if (from === to) return [];
  const edits = editsOf.get(to);
  const fromId = idOf.get(from);
  if (edits === undefined || fromId === undefined) return undefined;
  const at = edits.ancestors.indexOf(fromId);
  return at < 0 ? undefined : edits.keys.slice(0, at + 1);
}
