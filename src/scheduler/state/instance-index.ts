import { appendAll } from '../kernel/append-all';
import { assert } from '../kernel/assert';
import type { Instance } from '../model/instance';

/**
 * A run spec's instances: iterated in the order they were added (creation, or recovery's order),
 * looked up by id. It behaves as the `Map<string, Instance>` it replaces — iteration visits an
 * instance added during the iteration and skips one deleted before it is reached — but adding an
 * instance costs no map entry: the id index is extended when a look-up needs it, in creation order
 * and only as far as the instance looked for. A scale-up of a million instances so creates no
 * million entries (nor hashes a million 56-character ids) while it creates the instances; the
 * entries are made later, by the look-ups of those instances (a status update of a launched
 * instance, a kill by id). Launches take the oldest Scheduled instances first, so those look-ups
 * mostly extend the index by one; a look-up of an id the run spec does not hold indexes every
 * instance not indexed yet, once.
 */
export class InstanceIndex {
  /** Every instance in the order added; `undefined` where one was deleted (until {@link compact}). */
  private list: (Instance | undefined)[] = [];
  /** Position in `list` of every instance of `list[0 .. indexed)` that is still held. */
  private readonly positions = new Map<string, number>();
  private indexed = 0;
  private holes = 0;
  /** Iterations in progress: positions must not move under them (no compaction meanwhile). */
  private iterating = 0;

  /** How many instances are held. */
  get size(): number {
    return this.list.length - this.holes;
  }

  /** Adds an instance after every other. Its id must not be held already (ids are unique uuids). */
  set(instanceId: string, inst: Instance): void {
    if (inst.instanceId !== instanceId) assert(false, `instance ${inst.instanceId} added under ${instanceId}`);
    this.list.push(inst);
  }

  /**
   * Adds new instances after every other, in order (as {@link set} each, in one growth of the
   * list: a scale-up adds them in batches). Their ids must not be held already.
   */
  addAll(instances: readonly Instance[]): void {
    appendAll(this.list, instances);
  }

  get(instanceId: string): Instance | undefined {
    const at = this.positionOf(instanceId);
    return at === undefined ? undefined : this.list[at];
  }

  has(instanceId: string): boolean {
    return this.positionOf(instanceId) !== undefined;
  }

  /**
   * Takes the instance out; false when it is not held. The newest instance is taken off the end
   * without a look-up (a delete or stop kills the newest first: taking a run spec's million
   * Scheduled instances away so indexes none of them), except during an iteration, where an
   * instance added after it must still be visited.
   */
  delete(instanceId: string): boolean {
    const list = this.list;
    if (this.iterating === 0 && list.length > 0 && list[list.length - 1]?.instanceId === instanceId) {
      list.pop();
      this.positions.delete(instanceId);
      // Holes are only in the indexed part, so the ones now at the end have no entry left either.
      while (list.length > 0 && list[list.length - 1] === undefined) {
        list.pop();
        this.holes--;
      }
      if (this.indexed > list.length) this.indexed = list.length;
      return true;
    }
    const at = this.positionOf(instanceId);
    if (at === undefined) return false;
    this.list[at] = undefined;
    this.positions.delete(instanceId);
    this.holes++;
    if (this.holes > COMPACT_HOLES && this.holes * 2 > this.list.length && this.iterating === 0) this.compact();
    return true;
  }

  /**
   * The instances held, in the order added (see the class comment for changes during the
   * iteration). The iterator hands out one result object, updated by each `next()`: read it
   * before the next call, as `for … of`, spread and `Array.from` do (see {@link InstanceIterator}).
   */
  values(): IterableIterator<Instance> {
    return new InstanceIterator(this);
  }

  /** @internal {@link InstanceIterator}'s: the slot at `i` of the list (undefined where deleted or past the end). */
  slot(i: number): Instance | undefined {
    return this.list[i];
  }

  /** @internal {@link InstanceIterator}'s: the length of the list, holes included. */
  get slots(): number {
    return this.list.length;
  }

  /** @internal {@link InstanceIterator}'s: an iteration starts (no compaction until it ends). */
  iterationStarted(): void {
    this.iterating++;
  }

  /** @internal {@link InstanceIterator}'s: an iteration ended (ran out, or was left: `return()`). */
  iterationEnded(): void {
    this.iterating--;
  }

  private positionOf(instanceId: string): number | undefined {
    const at = this.positions.get(instanceId);
    if (at !== undefined || this.indexed === this.list.length) return at;
    // Extend the index in creation order until the instance is found (or every instance is indexed).
    const list = this.list;
    for (let i = this.indexed; i < list.length; i++) {
      const inst = list[i];
      if (inst === undefined) continue;
      this.positions.set(inst.instanceId, i);
      if (inst.instanceId === instanceId) {
        this.indexed = i + 1;
        return i;
      }
    }
    this.indexed = list.length;
    return undefined;
  }

  /** Drops the holes; the indexed part keeps being indexed (at the new positions). */
  private compact(): void {
    const kept: Instance[] = [];
    let indexed = 0;
    for (let i = 0; i < this.list.length; i++) {
      const inst = this.list[i];
      if (inst === undefined) continue;
      if (i < this.indexed) {
        this.positions.set(inst.instanceId, kept.length);
        indexed = kept.length + 1;
      }
      kept.push(inst);
    }
    this.list = kept;
    this.indexed = indexed;
    this.holes = 0;
  }
}

/** Holes tolerated before a compaction (and at most half of the list). */
const COMPACT_HOLES = 1024;

/**
 * The iterator of {@link InstanceIndex.values}, written out rather than as a generator: each
 * step of a generator allocates its `{ value, done }` result, and deployments read every instance
 * of a run spec after each input that changed it (deployments/action-status.ts; 535 MB of
 * results in 6 virtual hours of bench:sim, a fifth of all it allocated, 2026-11-29). This one
 * updates one result object per iteration; a consumer reads it before it asks for the next (every
 * consumer in the code is a `for … of`, a spread or an `Array.from`, which do). Like the
 * generator it replaces, it counts as iterating from its first `next()` until it runs out or is
 * left (`return()`, which `for … of` calls on a `break`).
 */
class InstanceIterator implements IterableIterator<Instance> {
  private at = 0;
  private state: 'new' | 'iterating' | 'ended' = 'new';
  private readonly result: { done: boolean; value: Instance | undefined } = { done: false, value: undefined };

  constructor(private readonly index: InstanceIndex) {}

  next(): IteratorResult<Instance> {
    const result = this.result;
    if (this.state !== 'iterating') {
      if (this.state === 'ended') return result as IteratorResult<Instance>;
      this.state = 'iterating';
      this.index.iterationStarted();
    }
    const index = this.index;
    while (this.at < index.slots) {
      const inst = index.slot(this.at++);
      if (inst !== undefined) {
        result.value = inst;
        return result as IteratorResult<Instance>;
      }
    }
    return this.end();
  }

  return(): IteratorResult<Instance> {
    return this.end();
  }

  [Symbol.iterator](): IterableIterator<Instance> {
    return this;
  }

  private end(): IteratorResult<Instance> {
    if (this.state === 'iterating') this.index.iterationEnded();
    this.state = 'ended';
    const result = this.result;
    result.done = true;
    result.value = undefined;
    return result as IteratorResult<Instance>;
  }
}
