import { appendAll } from '../kernel/append-all';
import type { Instance } from '../model/instance';

/**
 * FIFO of Scheduled instances with O(1) amortized `shift` (a head index plus occasional
 * compaction), so a queue of a million instances drains in linear time, and O(1) `remove`
 * (a tombstone skipped when it reaches the head), so a delete or scale-down of a hundred thousand
 * waiting instances is linear too.
 *
 * A slot the head passes is emptied at once, and a drained queue starts its list over: the queue
 * holds only the instances still in it (and its tombstones). It kept every instance shifted out
 * until the next compaction (1,025 shifts), so each app that relaunched (a crash loop, unhealthy
 * kills) held up to 1,024 instances gone long since: a soak trial of 2026-12-03 found 231 of the
 * heap's 335 instances there after 15 minutes.
 */
export class InstanceQueue {
  /** Slots before `head` are empty (undefined); every slot from `head` on holds an instance. */
  private items: (Instance | undefined)[] = [];
  private head = 0;
  /** Removed instances still in `items` (skipped by peek/shift, dropped by compaction). */
  private readonly removed = new Set<Instance>();
  /** `items.length - head - removed.size`, kept as a field: the matcher reads it for every candidate it visits. */
  private count = 0;
  private changes = 0;

  get length(): number {
    return this.count;
  }

  /**
   * Changes with every push, shift and remove: while it stays the same, `peek` returns the same
   * instance (the matcher keeps what it derived from the head without reading the queue again).
   */
  get version(): number {
    return this.changes;
  }

  push(inst: Instance): void {
    // Queued again while the tombstone of its earlier removal is still here: the tombstones go
    // first, so that the queue never holds an instance both removed and queued, and its next
    // removal is not taken for a second one of the first (a no-op that left a launched instance
    // in the queue: swarm seed 31015, where a config change then retargeted it while it ran).
    if (this.removed.size !== 0 && this.removed.has(inst)) this.compact();
    this.items.push(inst);
    this.count++;
    this.changes++;
  }

  /** Queues instances at the end, in order (as {@link push} each, in one growth of the list). */
  pushAll(instances: readonly Instance[]): void {
    if (instances.length === 0) return;
    if (this.removed.size !== 0 && instances.some((inst) => this.removed.has(inst))) this.compact();
    appendAll(this.items, instances);
    this.count += instances.length;
    this.changes += instances.length;
  }

  /** The instance `shift` would return next, left in the queue. */
  peek(): Instance | undefined {
    this.skipRemoved();
    return this.items[this.head];
  }

  /**
   * The first instance from the head for which `pred` holds, left in the queue; undefined when
   * none does. Costs one call of `pred` per instance passed over (the matcher passes over a
   * resident run spec's instances that wait for their own reservation: a few, and only while
   * one of its agents is away).
   */
  find(pred: (inst: Instance) => boolean): Instance | undefined {
    this.skipRemoved();
    const items = this.items;
    // A tombstone stands for the earliest occurrence, as in toArray.
    const skip = this.count === items.length - this.head ? undefined : new Set(this.removed);
    for (let i = this.head; i < items.length; i++) {
      const inst = items[i] as Instance;
      if (skip !== undefined && skip.delete(inst)) continue;
      if (pred(inst)) return inst;
    }
    return undefined;
  }

  /** Takes `inst` out, wherever it is: as {@link shift} when it is the head, else as {@link remove}. */
  take(inst: Instance): void {
    if (this.peek() === inst) {
      this.shift();
      return;
    }
    this.remove(inst);
  }

  shift(): Instance | undefined {
    this.skipRemoved();
    const items = this.items;
    if (this.head >= items.length) return undefined;
    const inst = items[this.head] as Instance;
    items[this.head++] = undefined;
    this.count--;
    this.changes++;
    if (this.head === items.length) {
      // Drained (no tombstone is left past the head): start the list over.
      items.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > items.length) this.compact();
    return inst;
  }

  /**
   * Removes one instance wherever it is. The instance must be in the queue (a Scheduled instance
   * is, and only it: instance-lifecycle keeps that so); removing one twice is a no-op (a tombstone
   * never outlives a later {@link push} of its instance, so a second removal is one).
   */
  remove(inst: Instance): void {
    if (this.removed.has(inst)) return;
    this.count--;
    this.changes++;
    if (this.items[this.items.length - 1] === inst && this.items.length > this.head) {
      this.items.pop();
      return;
    }
    this.removed.add(inst);
    if (this.removed.size > 1024 && this.removed.size * 2 > this.items.length - this.head) this.compact();
  }

  toArray(): Instance[] {
    if (this.removed.size === 0) return this.items.slice(this.head) as Instance[];
    // A tombstone stands for the earliest occurrence (an instance removed, then queued again, is kept at its new place).
    const skip = new Set(this.removed);
    const out: Instance[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const inst = this.items[i] as Instance;
      if (!skip.delete(inst)) out.push(inst);
    }
    return out;
  }

  private skipRemoved(): void {
    // `count` against the stored length, not `removed.size`: the matcher peeks the queue of every
    // candidate it visits, and the Set is one more object to load for what is nearly always "none".
    if (this.count === this.items.length - this.head) return;
    const items = this.items;
    while (this.head < items.length && this.removed.delete(items[this.head] as Instance)) items[this.head++] = undefined;
    if (this.head === items.length) {
      items.length = 0;
      this.head = 0;
    }
  }

  /** Drops the consumed head and every tombstone. */
  private compact(): void {
    this.items = this.toArray();
    this.head = 0;
    this.removed.clear();
  }
}
