import type { Instance } from '../model/instance';

/**
 * FIFO of Scheduled instances with O(1) amortized `shift` (a head index plus occasional
 * compaction), so a queue of a million instances drains in linear time.
 */
export class InstanceQueue {
  private items: Instance[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(inst: Instance): void {
    this.items.push(inst);
  }

  /** The instance `shift` would return next, left in the queue. */
  peek(): Instance | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): Instance | undefined {
    if (this.head >= this.items.length) return undefined;
    const inst = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return inst;
  }

  /** Removes one instance wherever it is (O(n); used by scale-down and deletes, not by matching). */
  remove(inst: Instance): boolean {
    const i = this.items.indexOf(inst, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  toArray(): Instance[] {
    return this.items.slice(this.head);
  }
}
