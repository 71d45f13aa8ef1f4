import type { Instance } from '../model/instance';

/**
 * The instances created or changed since they were last written (the instance tracker's dirty
 * set; instances/instance-tracker.ts fills it and `flushInstances` empties it, once per input and
 * right before each ACCEPT).
 *
 * Two parts, because a million placements go through here: a Set for every change, and a plain
 * list for the instances the tracker has just placed out of the launch queue ({@link addPlaced}).
 * Emptying the Set after each ACCEPT makes V8 start its table again from 4 entries, so an offer
 * that placed a few hundred instances paid for the table's growth (about 80 bytes of garbage per
 * placement) and for an identity hash written into each instance; a list that is handed over
 * whole costs one slot per placement.
 */
export class DirtyInstances {
  private readonly changed = new Set<Instance>();
  private placed: Instance[] = [];

  /** The instance's record is to be written (again) with the next flush; once however often added. */
  add(inst: Instance): void {
    this.changed.add(inst);
  }

  /**
   * A Scheduled instance the tracker has just placed (`place`). The caller guarantees that it was
   * not placed before since the last {@link take}: a placement makes it Provisioned, and it can
   * be placed again only after a terminal status has queued it again, in a later input (every
   * input ends with a flush). It may be in the Set too (changed earlier in this input): written
   * once all the same.
   */
  addPlaced(inst: Instance): void {
    this.placed.push(inst);
  }

  /**
   * The instance is written by other means in this flush (the state's `created` list, which
   * `flushInstances` writes first): it leaves both parts. The placed list is searched only when it
   * has entries, which it never has while instances are created (the matcher flushes before every
   * ACCEPT, so no placement is left unwritten when the input's later work creates instances).
   */
  delete(inst: Instance): void {
    this.changed.delete(inst);
    if (this.placed.length > 0) {
      const at = this.placed.indexOf(inst);
      if (at >= 0) this.placed.splice(at, 1);
    }
  }

  /** How many instances are to be written (an instance in both parts counts twice). */
  get size(): number {
    return this.changed.size + this.placed.length;
  }

  /**
   * Every instance to write for which `keep` holds, each once — first those of the Set in the
   * order they were first added, then the placed ones in the order they were placed — and empties
   * both parts.
   */
  take(keep: (inst: Instance) => boolean): Instance[] {
    const placed = this.placed;
    if (placed.length > 0) this.placed = [];
    const changed = this.changed;
    if (changed.size === 0) {
      let n = 0;
      for (let i = 0; i < placed.length; i++) if (keep(placed[i])) placed[n++] = placed[i];
      placed.length = n;
      return placed;
    }
    const out: Instance[] = [];
    for (const inst of changed) if (keep(inst)) out.push(inst);
    for (const inst of placed) if (!changed.has(inst) && keep(inst)) out.push(inst);
    changed.clear();
    return out;
  }
}
