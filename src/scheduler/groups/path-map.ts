import { compareCodeUnits, comparePathIds, isPlainAbsolute } from './path-id';

/*
 * A persistent map of the group tree (a group's apps, pods or subgroups): immutable, iterated in
 * the order its entries were given (path id order: the tree keeps every map sorted), and edited by
 * path copying. The entries are kept in chunks of at most {@link MAX_CHUNK}; setting or removing
 * one key copies the one chunk it is in and the short list of chunks, and shares every other
 * chunk with the map it was made from. A JavaScript Map had to be copied whole for each change:
 * with 1,000 apps in a group, every app created or deleted there copied 1,000 entries (about
 * 60 KB), and the root versions the history keeps held 50 such copies, so that most of what a
 * change allocated survived the young generation (issue 13: the core's create/delete p99 was a
 * scavenge copying them; the 1M queue build copied 500,000 entries).
 *
 * It extends Map so that what checks for a Map (the store's codec, `instanceof` in stored-record
 * checks) takes it as one, and every reading method of Map is overridden; the Map it extends is
 * always empty, and the writing methods throw (the tree's maps are ReadonlyMap).
 */

/** Entries per chunk at most (a chunk is one array of keys and values, interleaved). */
export const MAX_CHUNK = 64;

/** Lookups of one map after which it builds its hash index (at least; see `indexed`). */
const INDEX_AFTER_LOOKUPS = 64;

type Chunk = readonly unknown[];

/** An immutable map from path ids to `V`, cheap to edit one key at a time (see above). */
export class PathMap<V> extends Map<string, V> {
  /** Chunks of `[key0, value0, key1, value1, …]` in iteration order; none is empty. */
  private readonly chunks: readonly Chunk[];
  /** The first key of each chunk (binary search). */
  private readonly firsts: readonly string[];
  private readonly count: number;
  /**
   * Whether the keys are in path id order (always, for the tree's maps). A map built from entries
   * out of order is still read correctly (lookups scan it) and edited as a JavaScript Map was.
   */
  private readonly ordered: boolean;
  /** Whether every key is a plain absolute id (canonical ids are), so that searches compare code units. */
  private readonly plain: boolean;
  /**
   * A hash index of the entries, built once this map has answered many lookups (a deployment of
   * thousands of apps looks each one up several times in the same root): a lookup by search costs
   * about 14 comparisons of ids in a map of 10,000. Never built for the few lookups of one change;
   * the count and the index pass on to the map an edit makes ({@link handOn}), so a run of changes
   * to one large group builds it rarely: again only after a second edit of one version, which
   * finds the index taken by the first.
   */
  private index: Map<string, V> | undefined = undefined;
  private lookups = 0;

  private constructor(chunks: readonly Chunk[], firsts: readonly string[], count: number, ordered: boolean, plain: boolean) {
    super();
    this.chunks = chunks;
    this.firsts = firsts;
    this.count = count;
    this.ordered = ordered;
    this.plain = plain;
  }

  /** The map with no entry. */
  static empty<V>(): PathMap<V> {
    return new PathMap<V>([], [], 0, true, true);
  }

  /** `map` itself when it is a PathMap, else its entries in its iteration order. */
  static from<V>(map: ReadonlyMap<string, V>): PathMap<V> {
    if (map instanceof PathMap) return map as PathMap<V>;
    const chunks: unknown[][] = [];
    const firsts: string[] = [];
    let chunk: unknown[] = [];
    let ordered = true;
    let plain = true;
    let last: string | undefined;
    map.forEach((v, k) => {
      if (!isPlainAbsolute(k)) plain = false;
      if (last !== undefined && comparePathIds(last, k) >= 0) ordered = false;
      last = k;
      if (chunk.length === 2 * MAX_CHUNK) {
        chunks.push(chunk);
        chunk = [];
      }
      if (chunk.length === 0) firsts.push(k);
      chunk.push(k, v);
    });
    if (chunk.length > 0) chunks.push(chunk);
    return new PathMap<V>(chunks, firsts, map.size, ordered, plain);
  }

  /** Whether the keys are in path id order (every map of the tree is), so that a walk needs no sort. */
  inPathOrder(): boolean {
    return this.ordered;
  }

  override get size(): number {
    return this.count;
  }

  override get(key: string): V | undefined {
    if (this.index !== undefined || this.indexed()) return this.index?.get(key);
    const c = this.chunkOf(key);
    if (c < 0) return undefined;
    const chunk = this.chunks[c];
    const at = this.indexIn(chunk, key);
    return at >= 0 ? (chunk[at + 1] as V) : undefined;
  }

  override has(key: string): boolean {
    if (this.index !== undefined || this.indexed()) return this.index?.has(key) === true;
    const c = this.chunkOf(key);
    return c >= 0 && this.indexIn(this.chunks[c], key) >= 0;
  }

  /** Counts a lookup; builds the hash index once lookups reach max(64, size / 8) (so its cost is at most 8 a lookup). */
  private indexed(): boolean {
    if (++this.lookups < Math.max(INDEX_AFTER_LOOKUPS, this.count >>> 3)) return false;
    const index = new Map<string, V>();
    this.forEach((v, k) => index.set(k, v));
    this.index = index;
    return true;
  }

  override forEach(fn: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i += 2) fn.call(thisArg, chunk[i + 1] as V, chunk[i] as string, this);
    }
  }

  override keys(): MapIterator<string> {
    return new ChunkIterator<string>(this.chunks, KEYS);
  }

  override values(): MapIterator<V> {
    return new ChunkIterator<V>(this.chunks, VALUES);
  }

  override entries(): MapIterator<[string, V]> {
    return new ChunkIterator<[string, V]>(this.chunks, ENTRIES);
  }

  override [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  override set(): this {
    throw new Error('PathMap is immutable (use mapWith)');
  }

  override delete(): boolean {
    throw new Error('PathMap is immutable (use mapWithout)');
  }

  override clear(): void {
    throw new Error('PathMap is immutable');
  }

  /**
   * This map with `key` set to `value`: replaced in place when present, else inserted before the
   * first key that does not sort before it (the map is in path id order, so it stays in order).
   */
  with(key: string, value: V): PathMap<V> {
    if (!this.ordered) return PathMap.from(withUnordered(this, key, value));
    const c = this.chunkOf(key);
    if (c >= 0) {
      const at = this.indexIn(this.chunks[c], key);
      if (at >= 0) {
        const chunk = this.chunks[c].slice();
        chunk[at + 1] = value;
        return this.handOn(new PathMap<V>(replaced(this.chunks, c, chunk), this.firsts, this.count, this.ordered, this.plain), key, value);
      }
    }
    const plain = this.plain && isPlainAbsolute(key);
    if (this.chunks.length === 0) return new PathMap<V>([[key, value]], [key], 1, true, plain);
    // The chunk to insert into: the last whose first key sorts before `key` (else the first).
    const target = Math.max(0, this.lastBefore(key));
    const old = this.chunks[target];
    const lo = firstNotBefore(old.length / 2, (i) => old[2 * i] as string, key);
    const chunk = [...old.slice(0, 2 * lo), key, value, ...old.slice(2 * lo)];
    if (chunk.length <= 2 * MAX_CHUNK) {
      const firsts = lo === 0 ? replaced(this.firsts, target, key) : this.firsts;
      return this.handOn(new PathMap<V>(replaced(this.chunks, target, chunk), firsts, this.count + 1, true, plain), key, value);
    }
    const half = 2 * Math.floor(chunk.length / 4);
    const left = chunk.slice(0, half);
    const right = chunk.slice(half);
    const chunks = [...this.chunks.slice(0, target), left, right, ...this.chunks.slice(target + 1)];
    const firsts = [...this.firsts.slice(0, target), left[0] as string, right[0] as string, ...this.firsts.slice(target + 1)];
    return this.handOn(new PathMap<V>(chunks, firsts, this.count + 1, true, plain), key, value);
  }

  /** This map without `key` (itself when absent). */
  without(key: string): PathMap<V> {
    const c = this.chunkOf(key);
    if (c < 0) return this;
    const old = this.chunks[c];
    const at = this.indexIn(old, key);
    if (at < 0) return this;
    if (old.length === 2) {
      const chunks = [...this.chunks.slice(0, c), ...this.chunks.slice(c + 1)];
      return this.handOn(new PathMap<V>(chunks, [...this.firsts.slice(0, c), ...this.firsts.slice(c + 1)], this.count - 1, this.ordered, this.plain), key, REMOVED);
    }
    const chunk = [...old.slice(0, at), ...old.slice(at + 2)];
    const firsts = at === 0 ? replaced(this.firsts, c, chunk[0] as string) : this.firsts;
    return this.handOn(new PathMap<V>(replaced(this.chunks, c, chunk), firsts, this.count - 1, this.ordered, this.plain), key, REMOVED);
  }

  /**
   * `next`, this map edited at `key` (set to `value`, or removed), given this map's count of
   * lookups and its hash index, edited the same way: the index moves to the newer map, which is
   * the one read from now on (a deployment reads the root it made, not the one before). Without
   * this every change made a map that started its count from nothing and searched by comparing
   * ids: the root's group of 8,000 apps answered each of a change's some 18 lookups with about
   * 13 comparisons of ids, ~2 µs a lookup. This map answers by search again (and builds an index
   * of its own if it is read that much): the index is a cache, not a part of the map's value.
   */
  private handOn(next: PathMap<V>, key: string, value: V | typeof REMOVED): PathMap<V> {
    next.lookups = this.lookups;
    const index = this.index;
    if (index === undefined) return next;
    this.index = undefined;
    this.lookups = 0;
    if (value === REMOVED) index.delete(key);
    else index.set(key, value);
    next.index = index;
    return next;
  }

  /** The chunk that holds `key` if any map entry does: the last whose first key sorts at or before it; -1 when none. */
  private chunkOf(key: string): number {
    // Ids that are not plain (`//`, a trailing `/`) can compare equal to another id: scanned.
    if (!this.ordered || !this.plain || !isPlainAbsolute(key)) {
      for (let c = 0; c < this.chunks.length; c++) if (scanFor(this.chunks[c], key) >= 0) return c;
      return -1;
    }
    const firsts = this.firsts;
    let lo = 0;
    let hi = firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodeUnits(firsts[mid], key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /**
   * The index of `key` in a chunk (even: the value follows), or -1: a binary search of the chunk's
   * keys when the map is in order and the ids plain, else a scan.
   */
  private indexIn(chunk: Chunk, key: string): number {
    if (!this.ordered || !this.plain || !isPlainAbsolute(key)) return scanFor(chunk, key);
    let lo = 0;
    let hi = chunk.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = chunk[2 * mid] as string;
      if (k === key) return 2 * mid;
      if (compareCodeUnits(k, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** The last chunk whose first key sorts strictly before `key`; -1 when none. */
  private lastBefore(key: string): number {
    const firsts = this.firsts;
    return firstNotBefore(firsts.length, (i) => firsts[i], key) - 1;
  }
}

/**
 * `map` with `key` set, as a JavaScript Map was edited (the map is out of order, so this is the
 * rare path): replaced in place, or inserted where a binary search of the keys in their order puts it.
 */
/** The first of `count` keys in path id order (`keyAt(i)`) that does not sort before `key`; `count` when none. */
function firstNotBefore(count: number, keyAt: (i: number) => string, key: string): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePathIds(keyAt(mid), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function withUnordered<V>(map: ReadonlyMap<string, V>, key: string, value: V): Map<string, V> {
  const next = new Map<string, V>();
  if (map.has(key)) {
    map.forEach((v, k) => next.set(k, k === key ? value : v));
    return next;
  }
  const keys = [...map.keys()];
  const lo = firstNotBefore(keys.length, (i) => keys[i], key);
  let i = 0;
  map.forEach((v, k) => {
    if (i++ === lo) next.set(key, value);
    next.set(k, v);
  });
  if (lo === keys.length) next.set(key, value);
  return next;
}

/** The index of `key` in a chunk (even: the value follows), or -1, by a scan (a map out of order). */
function scanFor(chunk: Chunk, key: string): number {
  for (let i = 0; i < chunk.length; i += 2) if (chunk[i] === key) return i;
  return -1;
}

function replaced<T>(items: readonly T[], at: number, item: T): T[] {
  const copy = items.slice();
  copy[at] = item;
  return copy;
}

/** {@link PathMap.handOn}'s mark of a removed key. */
const REMOVED: unique symbol = Symbol('removed');

const KEYS = 0;
const VALUES = 1;
const ENTRIES = 2;

/** Iterates chunks as a Map iterator does: keys, values or `[key, value]` pairs. */
class ChunkIterator<T> implements MapIterator<T> {
  private c = 0;
  private i = 0;

  constructor(private readonly chunks: readonly Chunk[], private readonly kind: number) {}

  next(): IteratorResult<T, undefined> {
    const chunks = this.chunks;
    while (this.c < chunks.length) {
      const chunk = chunks[this.c];
      if (this.i < chunk.length) {
        const i = this.i;
        this.i += 2;
        const value = this.kind === KEYS ? chunk[i] : this.kind === VALUES ? chunk[i + 1] : [chunk[i], chunk[i + 1]];
        return { done: false, value: value as T };
      }
      this.c++;
      this.i = 0;
    }
    return { done: true, value: undefined };
  }

  [Symbol.iterator](): MapIterator<T> {
    return this;
  }
}
