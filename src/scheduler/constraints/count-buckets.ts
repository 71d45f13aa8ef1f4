import { assert } from '../kernel/assert';

interface Bucket {
  readonly count: number;
  /** How many groups currently have exactly `count` members. */
  groups: number;
  prev: Bucket | undefined;
  next: Bucket | undefined;
}

/**
 * A histogram of group sizes that answers "how many groups" and "how small is the smallest" in
 * O(1), for GROUP_BY. It does not know which group is which: the owner (FieldCounts) keeps the
 * per-value counts and reports every change of one group's size, which is always by exactly one.
 *
 * Representation: a doubly linked list of buckets, one per size in use, in increasing size order.
 * Because sizes move by ±1, a group leaving bucket `c` lands in the bucket right after (c+1) or
 * right before (c-1) it, creating that neighbour in place if it does not exist; so every update
 * is O(1) and the head is always the smallest size. (A plain array histogram with a min pointer
 * would need an unbounded scan when the smallest group disappears.)
 */
export class CountBuckets {
  private head: Bucket | undefined = undefined;
  private readonly bySize = new Map<number, Bucket>();
  private groupCount = 0;

  /** Number of groups (sizes > 0) tracked. */
  get size(): number {
    return this.groupCount;
  }

  /** The smallest group size, 0 when there are no groups. */
  get min(): number {
    return this.head === undefined ? 0 : this.head.count;
  }

  /**
   * One group changed size from `from` to `to` (`|to - from| === 1`; `from === 0` means the group
   * is new, `to === 0` means it is gone).
   */
  moved(from: number, to: number): void {
    if (!((to === from + 1 || to === from - 1) && from >= 0 && to >= 0)) assert(false, `group size moves by one (${from} → ${to})`);
    const source = from > 0 ? this.bySize.get(from) : undefined;
    if (!(from === 0 || source !== undefined)) assert(false, `a group of size ${from} exists`);

    if (to > 0) {
      let target = this.bySize.get(to);
      if (target === undefined) {
        target = { count: to, groups: 0, prev: undefined, next: undefined };
        this.bySize.set(to, target);
        if (source === undefined) this.linkAtHead(target);
        else if (to > from) this.linkAfter(source, target);
        else this.linkBefore(source, target);
      }
      target.groups++;
    }
    if (source !== undefined) {
      source.groups--;
      if (source.groups === 0) this.unlink(source);
    }
    if (from === 0) this.groupCount++;
    if (to === 0) this.groupCount--;
  }

  private linkAtHead(bucket: Bucket): void {
    bucket.next = this.head;
    if (this.head !== undefined) this.head.prev = bucket;
    this.head = bucket;
  }

  private linkAfter(anchor: Bucket, bucket: Bucket): void {
    bucket.prev = anchor;
    bucket.next = anchor.next;
    if (anchor.next !== undefined) anchor.next.prev = bucket;
    anchor.next = bucket;
  }

  private linkBefore(anchor: Bucket, bucket: Bucket): void {
    if (anchor.prev === undefined) {
      this.linkAtHead(bucket);
      return;
    }
    this.linkAfter(anchor.prev, bucket);
  }

  private unlink(bucket: Bucket): void {
    if (bucket.prev === undefined) this.head = bucket.next;
    else bucket.prev.next = bucket.next;
    if (bucket.next !== undefined) bucket.next.prev = bucket.prev;
    bucket.prev = undefined;
    bucket.next = undefined;
    this.bySize.delete(bucket.count);
  }
}
