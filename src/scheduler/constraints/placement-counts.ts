import type { AgentInfo } from '../model/agent';
import type { CompiledConstraints, CompiledField } from './compile-constraints';
import { FieldCounts } from './field-counts';
import { VALUE_IDS, type ValueIds } from './value-ids';

/**
 * The placed instances of one run spec, counted per constrained field value, kept up to date
 * incrementally so that constraint checks never rescan placed instances.
 *
 * Lifecycle: build one per run spec version from its compiled constraints, `add` every instance
 * already placed (once), then `add` each instance when it is placed — including tentatively,
 * within a matching cycle, so the next instance of the same cycle sees it — and `remove` it when
 * it ends or its placement is rolled back. Pass the same `AgentInfo` (the one recorded with the
 * instance) to `remove` as to `add`; counts are keyed by the values read from it.
 *
 * For every field: count per value, count without a value (agents lacking the field count under
 * no value), total. For GROUP_BY fields: number of groups and smallest group size in O(1). For
 * CLUSTER without a value: the anchor value. `add`/`remove` cost O(number of constrained fields).
 */
export class PlacementCounts {
  private readonly slots: readonly FieldCounts[];
  /** `slots[0]` (most run specs constrain one field): a check reads it without loading `slots`. */
  private readonly first: FieldCounts | undefined;
  /** Whether `first` is the only field. */
  private readonly single: boolean;
  private placed = 0;

  /** `registry`: where field values are interned (the process-wide one; tests pass their own). */
  constructor(compiled: CompiledConstraints, registry: ValueIds = VALUE_IDS) {
    this.slots = compiled.fields.map((f: CompiledField) => new FieldCounts(f.name, f.tracksGroups, f.tracksAnchor, registry));
    this.first = this.slots.length > 0 ? this.slots[0] : undefined;
    this.single = this.slots.length === 1;
  }

  /** Number of placed instances counted. */
  get size(): number {
    return this.placed;
  }

  /** The counters of one field, by `CompiledConstraint.fieldIndex`. O(1), no allocation. */
  field(fieldIndex: number): FieldCounts {
    return fieldIndex === 0 && this.first !== undefined ? this.first : this.slots[fieldIndex];
  }

  /**
   * Counts an instance placed on `agent`. With no or one constrained field (most run specs) the
   * `slots` array is not loaded: every placement counts, and at a million instances each object
   * read on the way is a likely cache miss.
   */
  add(agent: AgentInfo): void {
    this.placed++;
    const first = this.first;
    if (first === undefined) return;
    if (this.single) {
      first.addAgent(agent);
      return;
    }
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) slots[i].addAgent(agent);
  }

  /** Interns the counted values again if the registry started over since (see FieldCounts.renumber). */
  renumber(): void {
    for (const slot of this.slots) slot.renumber();
  }

  /** Uncounts an instance that had been placed on `agent` (and counted with `add`). */
  remove(agent: AgentInfo): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) slots[i].removeAgent(agent);
    this.placed--;
  }
}
