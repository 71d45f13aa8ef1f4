import { appendAll } from '../kernel/append-all';
import type { Instance } from '../model/instance';

/**
 * The input's write set: every instance created or changed since it was last written. The
 * instance tracker fills it (instances/instance-tracker.ts, instances/instance-lifecycle.ts) and
 * `flushInstances` empties it, once per input and right before each ACCEPT. It is the one owner
 * of what the next flush writes and in which order.
 *
 * Three parts, because a million instances can go through here in one input:
 * - the instances the input created, in creation order ({@link addCreated}): a scale-up creates
 *   up to `instancesPerInput` at once, a million in bench:match's queue build;
 * - the instances the tracker has just placed out of the launch queue ({@link addPlaced});
 * - a Set for every other change ({@link add}).
 * The two lists are handed over whole by {@link take}. A Set emptied after each ACCEPT makes V8
 * start its table again from 4 entries, so an offer that placed a few hundred instances paid for
 * the table's growth (about 80 bytes of garbage per placement) and for an identity hash written
 * into each instance; a list costs one slot per instance.
 */
export class DirtyInstances {
  private created: Instance[] = [];
  private readonly changed = new Set<Instance>();
  private placed: Instance[] = [];

  /** New instances, in creation order: written first by the next flush, in this order (the order a store lists them at recovery). */
  addCreated(instances: readonly Instance[]): void {
    appendAll(this.created, instances);
  }

  /** The instance's record is to be written (again) with the next flush; once however often added. */
  add(inst: Instance): void {
    this.changed.add(inst);
  }

  /**
   * A Scheduled instance the tracker has just placed (`place`). The caller guarantees that it was
   * not placed before since the last {@link take}: a placement makes it Provisioned, and it can
   * be placed again only after a terminal status has queued it again, in a later input (every
   * input ends with a flush). It may be in the other parts too (created or changed earlier in
   * this input): written once all the same.
   */
  addPlaced(inst: Instance): void {
    this.placed.push(inst);
  }

  /** How many entries are to be written (an instance in two parts counts twice). */
  get size(): number {
    return this.created.length + this.changed.size + this.placed.length;
  }

  /**
   * Every instance to write for which `keep` holds, each once — first the created ones in creation
   * order, then those of the Set in the order they were first added, then the placed ones in the
   * order they were placed — and empties all three parts. A part that is alone is handed over as
   * it is (the instances `keep` refuses dropped in place): the match phase's case (placed only)
   * and the queue build's (created only).
   */
  take(keep: (inst: Instance) => boolean): Instance[] {
    const created = this.created;
    const placed = this.placed;
    const changed = this.changed;
    if (created.length > 0) this.created = [];
    if (placed.length > 0) this.placed = [];
    if (changed.size === 0) {
      if (created.length === 0) return placed.length === 0 ? [] : keptInPlace(placed, keep);
      if (placed.length === 0) return keptInPlace(created, keep);
    }
    // Placed after it was created in the same input (rare: the match and the creation in one input).
    const createdToo = placed.length > 0 && created.length > 0 ? new Set(created) : undefined;
    // The created list (handed over) is the output: the other parts follow it, without what it holds already.
    const out = created.length > 0 ? created : [];
    let kept = 0;
    for (let i = 0; i < created.length; i++) {
      const inst = created[i];
      if (changed.size > 0) changed.delete(inst);
      if (keep(inst)) out[kept++] = inst;
    }
    out.length = kept;
    for (const inst of changed) if (keep(inst)) out.push(inst);
    for (const inst of placed) if (!changed.has(inst) && createdToo?.has(inst) !== true && keep(inst)) out.push(inst);
    changed.clear();
    return out;
  }
}

/** `list` with the instances `keep` refuses dropped, in place. */
function keptInPlace(list: Instance[], keep: (inst: Instance) => boolean): Instance[] {
  let n = 0;
  for (let i = 0; i < list.length; i++) if (keep(list[i])) list[n++] = list[i];
  list.length = n;
  return list;
}
