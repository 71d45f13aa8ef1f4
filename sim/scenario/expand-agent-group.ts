import type { AgentAttribute } from '../../src/scheduler/model/agent';
import type { PortRange } from '../../src/scheduler/model/resources';
import type { SimAgentSpec, SimResources } from '../cluster/sim-agent-spec';
import type { ConversionContext } from './conversion-context';
import { parseRanges } from './parse-ranges';
import { SCENARIO_AGENTS_MAX } from './scenario-limits';
import { childPointer } from './problem';
import type { RawAgentGroup, RawRanges, RawResources } from './raw-scenario';

const DEFAULT_PORTS = '31000-32000';
const PORT_MAX = 65_535;
const TEMPLATE = /\{([^{}]*)\}/g;
const TEMPLATE_PART = /^n(?:%([1-9]\d*))?$/;

function rangesOrNone(context: ConversionContext, pointer: string, value: RawRanges, maxValue: number): readonly PortRange[] {
  const parsed = parseRanges(value, maxValue);
  if (parsed.ok) return parsed.ranges;
  context.problem(pointer, parsed.reason);
  return [];
}

function resources(context: ConversionContext, pointer: string, raw: RawResources, defaultPorts: RawRanges): SimResources {
  return {
    cpus: raw.cpus ?? 0,
    mem: raw.mem ?? 0,
    disk: raw.disk ?? 0,
    gpus: raw.gpus ?? 0,
    ports: rangesOrNone(context, childPointer(pointer, 'ports'), raw.ports ?? defaultPorts, PORT_MAX),
  };
}

/** Checks `{n}` / `{n%K}` templates in a text; records a problem for anything else in braces. */
function checkTemplate(context: ConversionContext, pointer: string, text: string): void {
  for (const match of text.matchAll(TEMPLATE)) {
    if (!TEMPLATE_PART.test(match[1])) {
      context.problem(pointer, `unknown template "${match[0]}" in ${JSON.stringify(text)} (use {n} for the agent number or {n%K} for it modulo K)`);
    }
  }
}

/** Replaces `{n}` with the agent number and `{n%K}` with it modulo K. */
function renderTemplate(text: string, n: number): string {
  return text.replace(TEMPLATE, (whole, inner: string) => {
    const match = TEMPLATE_PART.exec(inner);
    if (match === null) return whole;
    return String(match[1] === undefined ? n : n % Number(match[1]));
  });
}

/** Attribute makers: one per attribute, checked once, applied to each agent number. */
function attributeMakers(context: ConversionContext, pointer: string, group: RawAgentGroup): ((n: number) => AgentAttribute)[] {
  const makers: ((n: number) => AgentAttribute)[] = [];
  for (const [name, value] of Object.entries(group.attributes ?? {})) {
    const at = childPointer(pointer, 'attributes', name);
    if (name.startsWith('@')) {
      context.problem(at, `attribute names cannot start with "@" (@hostname, @region and @zone are built in)`);
    }
    if (typeof value === 'string') {
      checkTemplate(context, at, value);
      makers.push((n) => ({ name, type: 'text', text: renderTemplate(value, n) }));
    } else if (typeof value === 'number') {
      makers.push(() => ({ name, type: 'scalar', scalar: value }));
    } else if ('set' in value) {
      const items = value.set.map(String);
      items.forEach((item, index) => checkTemplate(context, childPointer(at, 'set', index), item));
      makers.push((n) => ({ name, type: 'set', set: items.map((item) => renderTemplate(item, n)) }));
    } else {
      const parsed = rangesOrNone(context, childPointer(at, 'ranges'), value.ranges, Number.MAX_SAFE_INTEGER);
      makers.push(() => ({ name, type: 'ranges', ranges: parsed }));
    }
  }
  return makers;
}

/**
 * Expands one agent group into agents `${idPrefix}-${n}` on hosts `${hostnamePrefix}-${n}`. Numbers
 * run on per id prefix across groups (and `addAgents` steps) unless the group gives `start`. Zones
 * are assigned round-robin by position within the group. Registers each agent with the context,
 * which reports duplicate ids and hostnames.
 */
export function expandAgentGroup(context: ConversionContext, pointer: string, group: RawAgentGroup): SimAgentSpec[] {
  const count = group.count ?? 1;
  context.agentsMade += count;
  if (context.agentsMade > SCENARIO_AGENTS_MAX) {
    context.problem(pointer, `expected at most ${SCENARIO_AGENTS_MAX} agents in all (the cluster and every addAgents step), this group makes ${context.agentsMade}`);
    return [];
  }
  const idPrefix = group.idPrefix ?? 'agent';
  const hostnamePrefix = group.hostnamePrefix ?? idPrefix;
  const highest = context.agentNumbers.get(idPrefix) ?? 0;
  const first = group.start ?? highest + 1;
  context.agentNumbers.set(idPrefix, Math.max(highest, first + count - 1));

  const unreserved = resources(context, childPointer(pointer, 'resources'), group.resources, DEFAULT_PORTS);
  const reserved = (group.reserved ?? []).map((reservation, index) => {
    const at = childPointer(pointer, 'reserved', index);
    if (reservation.role === '*') context.problem(childPointer(at, 'role'), 'a static reservation needs a role other than "*"');
    return { role: reservation.role, ...resources(context, at, reservation, '') };
  });
  const makers = attributeMakers(context, pointer, group);

  const agents: SimAgentSpec[] = [];
  for (let index = 0; index < count; index++) {
    const n = first + index;
    const agent: SimAgentSpec = {
      agentId: `${idPrefix}-${n}`,
      hostname: `${hostnamePrefix}-${n}`,
      ...(group.region === undefined ? {} : { region: group.region }),
      ...(group.zones === undefined ? {} : { zone: group.zones[index % group.zones.length] }),
      attributes: makers.map((make) => make(n)),
      resources: unreserved,
      reserved,
    };
    context.addAgent(pointer, agent.agentId, agent.hostname);
    agents.push(agent);
  }
  return agents;
}
