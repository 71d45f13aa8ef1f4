import type { AgentInfo } from '../model/agent';
import { fieldKindOf, readField, type FieldKind } from './field-value';

/** The id {@link ValueIds.idOn} gives for an agent that lacks the field. */
export const NO_VALUE = -1;

/**
 * The numbering of one constrained field's values (its canonical name, `@hostname`, `rack`, …)
 * within one epoch of a {@link ValueIds} registry: each value text seen on an agent gets a small
 * integer, dense from 0, so that placement counters (FieldCounts) are typed arrays indexed by it
 * instead of maps keyed by strings. Made and owned by the registry; valid while its `epoch` is
 * the registry's.
 */
export class FieldValueIds {
  /** Value text → id. */
  readonly ids = new Map<string, number>();
  /** Id → value text. */
  readonly texts: string[] = [];
  readonly kind: FieldKind;

  constructor(readonly name: string, readonly slot: number, readonly epoch: number) {
    this.kind = fieldKindOf(name);
  }
}

/**
 * Interns the values of constrained fields to small integers (architecture §4, constraints):
 * an agent's value of a field is read and formatted once, then every check and placement counter
 * of every run spec constraining that field reads an integer. Each field has its own numbering
 * ({@link FieldValueIds}); each field also gets a `slot`, a small integer for the per-agent caches
 * (agent-value-id.ts).
 *
 * Bounded (docs/limits.md): values are never released one by one (agents come and go without the
 * core being told, and counters are dropped with the run specs that own them), so the registry
 * holds at most `maxValues` fields and values together. Past that, {@link startOverIfFull} — called
 * at a point where no check or update is half done, the start of a matching cycle — forgets every
 * field and value and starts a new `epoch`; whoever holds ids of an older epoch (FieldCounts, the
 * per-agent caches) interns its values again on its next use, so the registry grows back to the
 * values still in use. Cost: O(values in use) once per start-over, which is amortised over the
 * at least `maxValues` values interned before it.
 */
export class ValueIds {
  /** Bumped by every start-over: ids and slots of an older epoch mean nothing any more. */
  epoch = 0;
  private fields = new Map<string, FieldValueIds>();
  private count = 0;
  /** Each agent's ids, by field slot, of {@link AgentIds.epoch}; gone with the agent's object. */
  private readonly agents = new WeakMap<AgentInfo, AgentIds>();
  // The matcher asks for one agent many times in a row (every counted constraint of every
  // candidate of an offer): the last agent's ids are kept beside the WeakMap (a hash lookup).
  private lastAgent: AgentInfo | undefined = undefined;
  private lastIds: AgentIds = { epoch: -1, ids: [] };

  constructor(readonly maxValues: number) {}

  /** Fields and values held. */
  get size(): number {
    return this.count;
  }

  /** The numbering of the field with canonical name `name` in this epoch (made on first use). */
  field(name: string): FieldValueIds {
    let f = this.fields.get(name);
    if (f === undefined) {
      f = new FieldValueIds(name, this.fields.size, this.epoch);
      this.fields.set(name, f);
      this.count++;
    }
    return f;
  }

  /** The id of `text` in `field` (which must be of this epoch), given a new one on first use. */
  idOf(field: FieldValueIds, text: string): number {
    let id = field.ids.get(text);
    if (id === undefined) {
      id = field.texts.length;
      field.ids.set(text, id);
      field.texts.push(text);
      this.count++;
    }
    return id;
  }

  /**
   * The id of `agent`'s value of `field` (of this epoch), {@link NO_VALUE} when the agent lacks the
   * field. Read and interned once per agent object, field and epoch, then an array read (the
   * cache relies on `AgentInfo` being immutable, as agentAttributeValues does).
   */
  idOn(agent: AgentInfo, field: FieldValueIds): number {
    let entry: AgentIds;
    if (agent === this.lastAgent) {
      entry = this.lastIds;
    } else {
      const known = this.agents.get(agent);
      if (known === undefined) {
        entry = { epoch: this.epoch, ids: [] };
        this.agents.set(agent, entry);
      } else {
        entry = known;
      }
      this.lastAgent = agent;
      this.lastIds = entry;
    }
    if (entry.epoch !== this.epoch) {
      entry.epoch = this.epoch;
      entry.ids = [];
    }
    const ids = entry.ids;
    const id = ids[field.slot];
    if (id !== undefined && id !== UNKNOWN) return id;
    const text = readField(agent, field.kind, field.name);
    const fresh = text === undefined ? NO_VALUE : this.idOf(field, text);
    // Slots are dense from 0: fill the ones before so the array stays packed.
    while (ids.length < field.slot) ids.push(UNKNOWN);
    ids[field.slot] = fresh;
    return fresh;
  }

  /** Forgets everything and starts a new epoch when more than `maxValues` are held; true when it did. */
  startOverIfFull(): boolean {
    if (this.count <= this.maxValues) return false;
    this.startOver();
    return true;
  }

  /** Forgets every field and value and starts a new epoch (see the class). */
  startOver(): void {
    this.fields = new Map();
    this.count = 0;
    this.epoch++;
  }
}

/** One agent's value ids, indexed by field slot ({@link UNKNOWN}: not read yet), valid in `epoch`. */
interface AgentIds {
  epoch: number;
  ids: number[];
}

const UNKNOWN = -2;

/**
 * Fields and values the process-wide registry holds before it starts over (docs/limits.md): about
 * 100 bytes each, so at most ~100 MiB; a cluster of 10,000 agents constrained on five fields
 * holds ~50,000 (hostnames dominate).
 */
export const MAX_VALUE_IDS = 1 << 20;

/**
 * The registry every placement counter and agent cache uses. One per process, like the agents'
 * formatted attributes (agent-attribute-values.ts): ids are never observable (no answer, event or
 * trace shows them, and nothing iterates in id order), so schedulers sharing it stay deterministic.
 */
export const VALUE_IDS = new ValueIds(MAX_VALUE_IDS);
