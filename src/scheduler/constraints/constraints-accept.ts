import type { AgentInfo } from '../model/agent';
import type { CompiledConstraint, CompiledConstraints } from './compile-constraints';
import { readField } from './field-value';
import type { FieldCounts } from './field-counts';
import type { PlacementCounts } from './placement-counts';
import { NO_VALUE } from './value-ids';

/**
 * Whether a run spec's constraints let one more instance go to `agent`, given the instances
 * already placed (`counts`): -1 when every constraint accepts, otherwise the index of the first
 * constraint that refuses (in `compiled.constraints`, i.e. the order written), so the matcher can
 * record `UnfulfilledConstraint` and say which one.
 *
 * Hot path: runs for every (offer, launch request) pair. O(number of constraints), each O(1)
 * (counters read by the agent's interned value id, a Map lookup, a regex test for LIKE/UNLIKE);
 * no allocation once the agent's attributes and value ids are cached (agentAttributeValues,
 * ValueIds.idOn).
 */
export function constraintsAccept(compiled: CompiledConstraints, counts: PlacementCounts, agent: AgentInfo): number {
  const list = compiled.constraints;
  for (let i = 0; i < list.length; i++) {
    if (!constraintAccepts(list[i], counts, agent)) return i;
  }
  return -1;
}

/**
 * One constraint's rule (spec 2.8, following Marathon's `mesosphere.mesos.Constraints`):
 *
 * - The agent lacks the field: only UNLIKE accepts.
 * - A constraint that cannot be evaluated (`usable: false`) refuses.
 * - UNIQUE: no placed instance has this value.
 * - CLUSTER with a value: the field equals it exactly. Without: nothing placed yet, or the value
 *   equals the anchor (the first placed instance's value).
 * - GROUP_BY [N]: see {@link groupByAccepts}.
 * - LIKE / UNLIKE: the value does / does not fully match the regex.
 * - MAX_PER n: fewer than n placed instances have this value — or none does: Marathon looks the
 *   value up among the placed groups and accepts when it is not there at all, so `MAX_PER 0`
 *   still admits one instance per value. Kept for compatibility; validation cannot refuse 0.
 * - IS: the value equals the IS value as written, or its thousandth-rounded form when the IS value
 *   is a plain decimal (`0.80` and `0.8001` match a scalar attribute 0.8, formatted `0.8`).
 *   Marathon compares only the rounded form; also accepting the exact text makes a text attribute
 *   `1.0` match IS `1.0`, which Marathon would refuse, and changes nothing for scalar attributes
 *   (their formatted text never has trailing zeros).
 */
function constraintAccepts(c: CompiledConstraint, counts: PlacementCounts, agent: AgentInfo): boolean {
  if (c.counted) return countedAccepts(c, counts.field(c.fieldIndex), agent);
  const value = readField(agent, c.kind, c.field);
  if (value === undefined) return c.operator === 'UNLIKE';
  if (!c.usable) return false;

  // The usable UNIQUE, GROUP_BY, MAX_PER and CLUSTER without a value read the counters
  // (`counted`, above); what is left reads the agent's value alone.
  switch (c.operator) {
    case 'CLUSTER':
      return value === c.value;
    case 'LIKE':
      return c.regex !== undefined && c.regex.test(value);
    case 'UNLIKE':
      return c.regex !== undefined && !c.regex.test(value);
    case 'IS':
      return value === c.value || (c.isScalar !== undefined && value === c.isScalar);
    default:
      return false;
  }
}

/**
 * {@link constraintAccepts} for a usable constraint that reads the counters
 * (`CompiledConstraint.counted`), the same rules on the agent's value id: a typed-array read per
 * check, no text looked up (FieldCounts).
 */
function countedAccepts(c: CompiledConstraint, f: FieldCounts, agent: AgentInfo): boolean {
  const id = f.idOn(agent);
  if (id === NO_VALUE) return false;
  switch (c.operator) {
    case 'UNIQUE':
      return f.countOfId(id) === 0;
    case 'CLUSTER':
      return f.total === 0 || f.clusterId === id;
    case 'GROUP_BY':
      return groupByAccepts(c, f, id);
    case 'MAX_PER': {
      const placed = f.countOfId(id);
      return placed === 0 || placed < c.limit;
    }
    default:
      return false;
  }
}

/**
 * GROUP_BY, read from Marathon's `Constraints.checkGroupBy` (mesosphere/marathon,
 * src/main/scala/mesosphere/mesos/Constraints.scala, as of commit 4e4a53f4, June 2020 — the rule
 * that docs/docs/constraints.md and spec 2.8 describe):
 *
 *   minimum  = max(0, N)             (N = the value as an integer; no value → 0)
 *   groups   = placed instances grouped by their optional field value (instances without the
 *              field form one group of their own)
 *   minCount = size of the smallest group (0 when nothing is placed)
 *   accept  ⇔ the offer's value is not a group yet
 *           ∨ (number of groups ≥ minimum ∧ count(offer's value) = minCount)
 *
 * So a new value is always welcome (GROUP_BY never prevents using more than N values); an existing
 * value gets another instance only once N values are in use ("waits for offers from N values
 * before placing more than one per value") and only while it is among the least used (spreading).
 *
 * Marathon's master later replaced this with a quota-based rule (#7206, "Allow GROUP_BY to
 * preemptively scale up", Oct 2020) that refuses values beyond N and lets a value fill up before
 * others are seen; we do not follow it, because it contradicts spec 2.8 and the documentation.
 */
function groupByAccepts(c: CompiledConstraint, f: FieldCounts, id: number): boolean {
  const placed = f.countOfId(id);
  if (placed === 0) return true;
  return f.groupCount >= c.limit && placed === f.minGroupCount;
}
