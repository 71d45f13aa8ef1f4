import type { AgentAttribute } from '../../../scheduler/model/agent';
import type { PortRange } from '../../../scheduler/model/resources';
import type { Attribute, Range } from '../codec/mesos-model';

/**
 * A Mesos agent attribute (mesos-v1-scheduler-api.md §4.4) as the core's typed attribute. The
 * value is kept typed, not pre-formatted: the core renders it for constraints in Marathon's form
 * (`constraints/format-attribute.ts`: text as is, scalars to three decimals half-even, ranges
 * `[b-e,b-e]` sorted, sets `{a,b}` sorted), exactly the "Marathon" column of §4.4.
 *
 * Attributes whose `type` names a value that is absent (a malformed agent report) are dropped:
 * undefined. Note `rack:1` on the agent command line arrives as SCALAR 1 (§4.4), and constraint
 * matching sees `1`, as with Marathon.
 */
export function agentAttributeFromMesos(attr: Attribute): AgentAttribute | undefined {
  const name = attr.name;
  switch (attr.type) {
    case 'TEXT':
      return attr.text === undefined ? undefined : { name, type: 'text', text: attr.text.value };
    case 'SCALAR':
      return attr.scalar === undefined ? undefined : { name, type: 'scalar', scalar: attr.scalar.value };
    case 'RANGES':
      return attr.ranges === undefined ? undefined : { name, type: 'ranges', ranges: rangesOf(attr.ranges.range) };
    case 'SET':
      return attr.set === undefined ? undefined : { name, type: 'set', set: [...(attr.set.item ?? [])] };
  }
}

/**
 * Mesos ranges as the core's inclusive `[begin, end]` pairs, in the order given. Bounds are uint64
 * (exact in the model, codec/int64.ts) and become numbers: ports and attribute ranges are far below
 * 2^53, where the conversion is exact.
 */
export function rangesOf(ranges: readonly Range[] | undefined): PortRange[] {
  return (ranges ?? []).map((r) => [Number(r.begin), Number(r.end)] as const);
}
