import { assert } from '../kernel/assert';
import type { AgentInfo } from '../model/agent';
import { CountBuckets } from './count-buckets';
import { NO_VALUE, VALUE_IDS, type FieldValueIds, type ValueIds } from './value-ids';

/**
 * Placed-instance counters for one constrained field of one run spec: how many placed instances
 * have each value, how many have no value, and (for CLUSTER without a value) the value the group
 * is anchored to. Optionally a group-size histogram for GROUP_BY.
 *
 * Values are counted by their interned id ({@link ValueIds}): the count of a value is a typed-array
 * read, no string hashed (the matcher reads one run spec's counters after another for the same
 * agent: with a map per run spec, each read was a few cache misses). The array covers the ids
 * below max(1,024, 16 × values in use); a value with a larger id (a run spec with few instances in
 * a large cluster) is counted in a map instead, so a run spec's counters take O(values it uses).
 * When the registry starts over (a new epoch), the counters intern their values again
 * ({@link renumber}: at once for the core's run specs, see match-offers.ts; otherwise on their next
 * use), reading the texts from the numbering they were counted in, and keep the counts. Only a
 * field that CLUSTER reads without a value (`tracksAnchor`) keeps the order values came into use,
 * by which its anchor moves.
 *
 * All reads are O(1) and allocate nothing (after a start-over, the first is O(values in use)).
 * Updates are O(1) amortised.
 */
export class FieldCounts {
  private field: FieldValueIds;
  /** Counts by id for ids below its length; the others in `sparse`. */
  private dense: Int32Array = EMPTY;
  private sparse: Map<number, number> | undefined = undefined;
  /** `tracksAnchor`: the ids in use (count > 0), in the order they came into use. */
  private order: Set<number> | undefined;
  private distinct = 0;
  private noValueCount = 0;
  private totalCount = 0;
  private readonly groups: CountBuckets | undefined;
  /** CLUSTER without a value: the anchor's id ({@link NO_VALUE}: an instance without a value), meaningful while `totalCount > 0`. */
  private anchor = NO_VALUE;

  /**
   * `fieldName`: the field's canonical name (CompiledField.name). `tracksGroups`: keep the
   * histogram GROUP_BY needs; `tracksAnchor`: keep what CLUSTER without a value needs (each costs
   * a little on every add/remove).
   */
  constructor(fieldName: string, tracksGroups: boolean, tracksAnchor: boolean, private readonly registry: ValueIds = VALUE_IDS) {
    this.field = registry.field(fieldName);
    this.groups = tracksGroups ? new CountBuckets() : undefined;
    this.order = tracksAnchor ? new Set() : undefined;
  }

  /** Placed instances counted, with or without a value. */
  get total(): number {
    return this.totalCount;
  }

  /** Placed instances whose agent has no value for this field. */
  get withoutValue(): number {
    return this.noValueCount;
  }

  /** Number of distinct values in use (not counting "no value"). */
  get distinctValues(): number {
    return this.distinct;
  }

  /** The id of `agent`'s value of this field ({@link NO_VALUE}: it lacks the field), for {@link countOfId} and {@link clusterId}. */
  idOn(agent: AgentInfo): number {
    if (this.field.epoch !== this.registry.epoch) this.renumber();
    return this.registry.idOn(agent, this.field);
  }

  /** Placed instances whose agent has the value of id `id` (from {@link idOn}, not {@link NO_VALUE}). */
  countOfId(id: number): number {
    if (id < this.dense.length) return this.dense[id];
    return this.sparse === undefined ? 0 : this.sparse.get(id) ?? 0;
  }

  /** Placed instances whose agent has `value` for this field. */
  countOf(value: string): number {
    if (this.field.epoch !== this.registry.epoch) this.renumber();
    const id = this.field.ids.get(value);
    return id === undefined ? 0 : this.countOfId(id);
  }

  /**
   * GROUP_BY's groups: distinct values in use, plus one for "no value" when any placed instance
   * lacks the field (Marathon groups placed instances by an optional value, so those form a group
   * of their own). Requires `tracksGroups`.
   */
  get groupCount(): number {
    assert(this.groups !== undefined, 'groupCount needs tracksGroups');
    return this.groups.size;
  }

  /** The size of the smallest group (see {@link groupCount}), 0 when nothing is placed. Requires `tracksGroups`. */
  get minGroupCount(): number {
    assert(this.groups !== undefined, 'minGroupCount needs tracksGroups');
    return this.groups.min;
  }

  /**
   * CLUSTER without a value: the value the placed instances are anchored to — the value of the
   * first instance placed since the field was last empty (undefined when that instance's agent had
   * no value, or when nothing is placed; check {@link total}). Should every instance with the
   * anchor value go while others remain (possible only when instances predate the constraint),
   * the anchor moves to the value continuously in use the longest, or to "no value".
   * Requires `tracksAnchor`.
   */
  get clusterValue(): string | undefined {
    assert(this.order !== undefined, 'clusterValue needs tracksAnchor');
    if (this.totalCount === 0 || this.anchor === NO_VALUE) return undefined;
    if (this.field.epoch !== this.registry.epoch) this.renumber();
    return this.field.texts[this.anchor];
  }

  /**
   * {@link clusterValue} as an id ({@link NO_VALUE}: no value), in the epoch of the last
   * {@link idOn}; read it while {@link total} > 0. Requires `tracksAnchor` (not checked: the hot path).
   */
  get clusterId(): number {
    return this.anchor;
  }

  /** Counts one more placed instance on `agent`. */
  addAgent(agent: AgentInfo): void {
    this.add(this.idOn(agent));
  }

  /** Counts one placed instance on `agent` fewer; it must have been added with the same agent. */
  removeAgent(agent: AgentInfo): void {
    this.remove(this.idOn(agent));
  }

  private add(id: number): void {
    if (this.totalCount === 0) this.anchor = id;
    this.totalCount++;
    if (id === NO_VALUE) {
      this.noValueCount++;
      this.groups?.moved(this.noValueCount - 1, this.noValueCount);
      return;
    }
    const before = this.countOfId(id);
    this.set(id, before + 1);
    if (before === 0) {
      this.distinct++;
      this.order?.add(id);
    }
    this.groups?.moved(before, before + 1);
  }

  private remove(id: number): void {
    let emptied: boolean;
    if (id === NO_VALUE) {
      assert(this.noValueCount > 0, 'remove: an instance without a value was counted');
      this.noValueCount--;
      this.groups?.moved(this.noValueCount + 1, this.noValueCount);
      emptied = this.noValueCount === 0;
    } else {
      const before = this.countOfId(id);
      if (before <= 0) assert(false, `remove: an instance with value ${JSON.stringify(this.field.texts[id])} was counted`);
      this.set(id, before - 1);
      if (before === 1) {
        this.distinct--;
        this.order?.delete(id);
      }
      this.groups?.moved(before, before - 1);
      emptied = before === 1;
    }
    this.totalCount--;

    if (this.order !== undefined && this.totalCount > 0 && emptied && id === this.anchor) {
      // Set iteration follows insertion order and emptied values are deleted, so the first id
      // is the value continuously in use the longest.
      const first = this.order.values().next();
      this.anchor = first.done === true ? NO_VALUE : first.value;
    }
  }

  /** Sets the count of `id`. */
  private set(id: number, count: number): void {
    if (id < this.dense.length) {
      this.dense[id] = count;
      return;
    }
    const limit = Math.max(DENSE_MIN, DENSE_PER_VALUE * (this.distinct + 1));
    if (id < limit) {
      this.grow(id, limit);
      this.dense[id] = count;
      return;
    }
    this.sparse ??= new Map();
    if (count === 0) this.sparse.delete(id);
    else this.sparse.set(id, count);
  }

  /** A larger array covering `id` (not beyond `limit` unless `id` needs it); the sparse counts it now covers move in. */
  private grow(id: number, limit: number): void {
    let length = Math.max(64, this.dense.length * 2);
    while (length <= id) length *= 2;
    length = Math.min(length, Math.max(limit, id + 1));
    const next = new Int32Array(length);
    next.set(this.dense);
    this.dense = next;
    const sparse = this.sparse;
    if (sparse === undefined) return;
    for (const [k, n] of sparse) {
      if (k >= length) continue;
      next[k] = n;
      sparse.delete(k);
    }
  }

  /**
   * Interns the values in use again when the registry started over since they were counted, and
   * moves their counts (and their order, when kept); the texts come from the numbering they were
   * counted in, which this object holds until then. O(1) when nothing started over.
   */
  renumber(): void {
    if (this.field.epoch === this.registry.epoch) return;
    const old = { field: this.field, dense: this.dense, sparse: this.sparse, order: this.order, anchor: this.anchor };
    this.field = this.registry.field(old.field.name);
    this.dense = EMPTY;
    this.sparse = undefined;
    this.anchor = NO_VALUE;
    const moved = new Map<number, number>();
    const move = (oldId: number, count: number): void => {
      const id = this.registry.idOf(this.field, old.field.texts[oldId]);
      moved.set(oldId, id);
      this.set(id, count);
    };
    for (let oldId = 0; oldId < old.dense.length; oldId++) if (old.dense[oldId] > 0) move(oldId, old.dense[oldId]);
    if (old.sparse !== undefined) for (const [oldId, count] of old.sparse) move(oldId, count);
    if (old.anchor !== NO_VALUE) this.anchor = moved.get(old.anchor) ?? NO_VALUE;
    if (old.order !== undefined) {
      const order = new Set<number>();
      for (const oldId of old.order) order.add(moved.get(oldId) as number);
      this.order = order;
    }
  }
}

const EMPTY = new Int32Array(0);
/** Counter arrays cover at least this many ids… */
const DENSE_MIN = 1024;
/** …or this many per value in use (4 bytes each: 64 bytes per value, about a map entry's size). */
const DENSE_PER_VALUE = 16;
