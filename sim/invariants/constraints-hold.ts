import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { Constraint } from '../../src/scheduler/model/constraint';
import { fieldValue, formatAttributeValue } from '../../src/scheduler/index';

/**
 * Simulator invariant: do the placed instances of one run spec satisfy its constraints? Returns a
 * description of the first violation, or undefined when they all hold.
 *
 * An independent oracle for the matcher: it recomputes everything from the list of agents the
 * run spec's instances sit on (one entry per instance), with deliberately plain code, and shares
 * nothing with PlacementCounts or constraintsAccept — only the formatting of field values, which
 * is not the logic under test. It assumes every listed instance was placed under these
 * constraints (after a constraint change, check only instances placed since).
 *
 * Checked: an instance on an agent lacking the field (only UNLIKE allows it); UNIQUE (no value
 * twice); MAX_PER n (no value more than n times — or once, when n < 1: Marathon admits one
 * instance per value even for MAX_PER 0); CLUSTER with a value (every value equals it) and without
 * (all values equal); LIKE / UNLIKE (every value fully matches / does not match); IS (every value
 * equals the IS value as written or, for a plain decimal, rounded to the thousandth). A constraint
 * that cannot be evaluated (missing value, bad regex, non-integer MAX_PER) is violated by any
 * instance it would have had to accept.
 *
 * Not checked: GROUP_BY. Whether a GROUP_BY placement was right depends on the order in which
 * instances were placed and removed, which a snapshot of placements does not carry.
 */
export function constraintsHold(constraints: readonly Constraint[], placedAgents: readonly AgentInfo[]): string | undefined {
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i];
    if (c.operator === 'GROUP_BY') continue;
    const problem = firstViolation(c, placedAgents);
    if (problem !== undefined) {
      const written = c.value === undefined ? [c.field, c.operator] : [c.field, c.operator, c.value];
      return `constraint #${i} ${JSON.stringify(written)}: ${problem}`;
    }
  }
  return undefined;
}

function firstViolation(c: Constraint, agents: readonly AgentInfo[]): string | undefined {
  const value = c.value === undefined || c.value === '' ? undefined : c.value;
  const seen = new Map<string, number>();
  let first: string | undefined;

  for (let k = 0; k < agents.length; k++) {
    const agent = agents[k];
    const where = `instance ${k} on agent ${agent.agentId} (${agent.hostname})`;
    const v = fieldValue(agent, c.field);
    if (v === undefined) {
      if (c.operator === 'UNLIKE') continue;
      return `${where} lacks field ${c.field}`;
    }
    const n = (seen.get(v) ?? 0) + 1;
    seen.set(v, n);
    if (k === 0) first = v;

    switch (c.operator) {
      case 'UNIQUE':
        if (n > 1) return `${where}: value ${JSON.stringify(v)} is used by ${n} instances`;
        break;
      case 'MAX_PER': {
        const max = value !== undefined && /^[+-]?[0-9]+$/.test(value) ? Number(value) : undefined;
        if (max === undefined) return `${where}: MAX_PER without an integer admits no instance`;
        if (n > Math.max(max, 1)) return `${where}: value ${JSON.stringify(v)} is used by ${n} instances, more than ${value}`;
        break;
      }
      case 'CLUSTER':
        if (value !== undefined && v !== value) return `${where}: value ${JSON.stringify(v)} is not ${JSON.stringify(value)}`;
        if (value === undefined && v !== first) {
          return `${where}: value ${JSON.stringify(v)} differs from the first instance's ${JSON.stringify(first)}`;
        }
        break;
      case 'LIKE':
      case 'UNLIKE': {
        const matches = value === undefined ? undefined : wholeMatch(value, v);
        if (matches === undefined) return `${where}: ${c.operator} without a valid regular expression admits no instance`;
        if (c.operator === 'LIKE' && !matches) return `${where}: value ${JSON.stringify(v)} does not match ${value}`;
        if (c.operator === 'UNLIKE' && matches) return `${where}: value ${JSON.stringify(v)} matches ${value}`;
        break;
      }
      case 'IS': {
        if (value === undefined) return `${where}: IS without a value admits no instance`;
        const rounded = /^[0-9]+(\.[0-9]+)?$/.test(value)
          ? formatAttributeValue({ name: c.field, type: 'scalar', scalar: Number(value) })
          : undefined;
        if (v !== value && v !== rounded) return `${where}: value ${JSON.stringify(v)} is not ${JSON.stringify(value)}`;
        break;
      }
      default:
        return `${where}: unknown operator ${String(c.operator)}`;
    }
  }
  return undefined;
}

/** Whether `text` as a whole matches `pattern`; undefined when the pattern does not compile. */
function wholeMatch(pattern: string, text: string): boolean | undefined {
  let re: RegExp;
  try {
    new RegExp(pattern);
    re = new RegExp(`^(?:${pattern})$`);
  } catch {
    return undefined;
  }
  return re.test(text);
}
