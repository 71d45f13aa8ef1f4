import { assert } from '../kernel/assert';
import { CountBuckets } from './count-buckets';

/**
 * Placed-instance counters for one constrained field of one run spec: how many placed instances
 * have each value, how many have no value, and (for CLUSTER without a value) the value the group
 * is anchored to. Optionally a group-size histogram for GROUP_BY.
 *
 * All reads are O(1) and allocate nothing. Updates are O(1) amortised.
 */
export class FieldCounts {
  private readonly counts = new Map<string, number>();
  private noValueCount = 0;
  private totalCount = 0;
  private readonly groups: CountBuckets | undefined;
  private anchor: string | undefined = undefined;

  /** `tracksGroups`: keep the histogram GROUP_BY needs (costs a little on every add/remove). */
  constructor(tracksGroups: boolean) {
    this.groups = tracksGroups ? new CountBuckets() : undefined;
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
    return this.counts.size;
  }

  /** Placed instances whose agent has `value` for this field. */
  countOf(value: string): number {
    return this.counts.get(value) ?? 0;
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
   */
  get clusterValue(): string | undefined {
    return this.anchor;
  }

  /** Counts one more placed instance with `value` (undefined: the agent lacks the field). */
  add(value: string | undefined): void {
    if (this.totalCount === 0) this.anchor = value;
    this.totalCount++;
    if (value === undefined) {
      this.noValueCount++;
      this.groups?.moved(this.noValueCount - 1, this.noValueCount);
      return;
    }
    const before = this.counts.get(value) ?? 0;
    this.counts.set(value, before + 1);
    this.groups?.moved(before, before + 1);
  }

  /** Counts one placed instance with `value` fewer; it must have been added with the same value. */
  remove(value: string | undefined): void {
    let emptied: boolean;
    if (value === undefined) {
      assert(this.noValueCount > 0, 'remove: an instance without a value was counted');
      this.noValueCount--;
      this.groups?.moved(this.noValueCount + 1, this.noValueCount);
      emptied = this.noValueCount === 0;
    } else {
      const before = this.counts.get(value);
      assert(before !== undefined && before > 0, `remove: an instance with value ${JSON.stringify(value)} was counted`);
      if (before === 1) this.counts.delete(value);
      else this.counts.set(value, before - 1);
      this.groups?.moved(before, before - 1);
      emptied = before === 1;
    }
    this.totalCount--;

    if (this.totalCount === 0) {
      this.anchor = undefined;
    } else if (emptied && value === this.anchor) {
      // Map iteration follows insertion order and emptied values are deleted, so the first key
      // is the value continuously in use the longest.
      const first = this.counts.keys().next();
      this.anchor = first.done === true ? undefined : first.value;
    }
  }
}
