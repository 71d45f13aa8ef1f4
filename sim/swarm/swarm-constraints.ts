import { fieldValue, validateConstraint } from '../../src/scheduler/index';
import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { SwarmDraw } from './swarm-draw';

/** A constraint as an app writes it: `[field, operator]` or `[field, operator, value]`. */
export type WireConstraint = readonly [string, string] | readonly [string, string, string];

/** Fields constraints are drawn over: built-ins, the generated attributes, and one no agent has. */
const FIELDS: readonly (readonly [string, number])[] = [
  ['hostname', 4], ['@hostname', 1], ['@zone', 4], ['@region', 2], ['rack', 3], ['tier', 2], ['weight', 1],
  ['disks', 1], ['slots', 1], ['gpu-model', 0.3],
];

const OPERATORS: readonly (readonly [string, number])[] = [
  ['UNIQUE', 3], ['CLUSTER', 2], ['GROUP_BY', 2], ['LIKE', 2], ['UNLIKE', 1.5], ['MAX_PER', 2], ['IS', 1.5],
];

/** `IS` values the validator accepts (validate-constraint.ts). */
const IS_VALUE = /^[a-zA-Z0-9_/.-]+$/;

/**
 * Draws 0–3 placement constraints (0–2, mostly 0 or 1, when `few`) with values that make sense for the cluster's agents: CLUSTER
 * and IS name a value some agent has, LIKE/UNLIKE alternate existing values (regex-escaped) or use
 * a broad pattern, MAX_PER and GROUP_BY take small integers. With probability `impossible` a
 * constraint asks for what no agent has (a value nobody carries, a pattern nothing matches).
 * Operators come in mixed case now and then (the converter accepts any case). Every constraint
 * passes the core's validateConstraint.
 */
export function generateConstraints(draw: SwarmDraw, agents: readonly AgentInfo[], impossible: number, few: boolean): WireConstraint[] {
  const out: WireConstraint[] = [];
  const count = draw.weighted<number>(few ? [[0, 5], [1, 4], [2, 1]] : [[0, 3], [1, 4], [2, 2], [3, 1]]);
  for (let i = 0; i < count; i++) out.push(oneConstraint(draw, agents, impossible));
  return out;
}

function oneConstraint(draw: SwarmDraw, agents: readonly AgentInfo[], impossible: number): WireConstraint {
  const field = draw.weighted(FIELDS);
  const values = [...new Set(agents.map((a) => fieldValue(a, field)).filter((v): v is string => v !== undefined))].sort();
  const unreachableValue = draw.chance(impossible) || values.length === 0;
  let operator = draw.weighted(OPERATORS);
  if (operator === 'IS' && !unreachableValue && !values.some((v) => IS_VALUE.test(v))) operator = 'CLUSTER';
  const written = draw.chance(0.1) ? operator.toLowerCase() : operator;
  const c = build(draw, field, operator, written, values, unreachableValue);
  const problems = validateConstraint({ field: c[0], operator: c[1], value: c[2] });
  if (problems.length > 0) throw new Error(`swarm generated an invalid constraint ${JSON.stringify(c)}: ${problems.join('; ')}`);
  return c;
}

function build(
  draw: SwarmDraw, field: string, operator: string, written: string, values: readonly string[], impossible: boolean,
): WireConstraint {
  switch (operator) {
    case 'UNIQUE':
      return [field, written];
    case 'GROUP_BY':
      return draw.chance(0.3) ? [field, written] : [field, written, String(draw.int(1, 4))];
    case 'MAX_PER':
      return [field, written, String(draw.int(0, 3))];
    case 'CLUSTER':
      if (impossible) return [field, written, 'nowhere'];
      return draw.chance(0.25) ? [field, written] : [field, written, draw.pick(values)];
    case 'IS': {
      if (impossible) return [field, written, 'nowhere'];
      const value = draw.pick(values.filter((v) => IS_VALUE.test(v)));
      // A scalar may be written with trailing zeros: IS compares the thousandth-rounded form.
      return [field, written, /^[0-9]+\.[0-9]+$/.test(value) && draw.chance(0.5) ? `${value}0` : value];
    }
    case 'LIKE':
    case 'UNLIKE': {
      if (impossible) return [field, written, 'no-such-value-[0-9]+'];
      const shape = draw.weighted([['alternation', 4], ['any', 1], ['prefix', 1]] as const);
      if (shape === 'any') return [field, written, '.*'];
      if (shape === 'prefix') return [field, written, `${escapeRegex(draw.pick(values).slice(0, 2))}.*`];
      return [field, written, draw.sample(values, draw.int(1, Math.max(1, Math.ceil(values.length / 2)))).map(escapeRegex).join('|')];
    }
    default:
      throw new Error(`unknown operator ${operator}`);
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
