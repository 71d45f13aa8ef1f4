import { isIP } from 'node:net';
import { availableParallelism, totalmem } from 'node:os';
import type { AgentInfo } from '../../scheduler/model/agent';
import type { IpAddress } from '../../scheduler/model/ip-address';
import { toMilli, type PortRange, type ScalarResources } from '../../scheduler/model/resources';
import { DEFAULT_HOSTNAME, type AgentDomain, type LocalAgentOptions } from './local-cluster-options';
import { rangesOverlap } from '../../master/port-ranges';
import { attributeFromText } from './agent-attribute-text';

/** An agent of the local cluster with its options resolved: identity and capacity. */
export interface LocalAgent {
  readonly agentId: string;
  readonly info: AgentInfo;
  readonly capacity: ScalarResources;
  readonly ports: readonly PortRange[];
}

/** Where the default host-port range of a count of agents begins, and how many ports each agent gets. */
export const DEFAULT_FIRST_AGENT_PORT = 31000;
export const DEFAULT_PORTS_PER_AGENT = 1000;
const DEFAULT_DISK_MIB = 10_240;

/**
 * The host ports a count of agents shares by default: from 31000, 1000 per agent (31000-31999 for
 * one agent), the range a Mesos agent offers by default.
 */
export function defaultAgentPorts(count: number): PortRange {
  return [DEFAULT_FIRST_AGENT_PORT, DEFAULT_FIRST_AGENT_PORT + count * DEFAULT_PORTS_PER_AGENT - 1];
}

/** Most agents of a local cluster given as a count (`--local_agents`). */
export const MAX_LOCAL_AGENTS = 64;

/**
 * Why per-agent `items` (attribute lists, fault domains) cannot go to `count` agents (undefined
 * when they can): one for every agent, or one per agent. `noun` names them in the answer.
 */
export function perAgentProblem(noun: string, items: readonly unknown[], count: number): string | undefined {
  if (items.length <= 1 || items.length === count) return undefined;
  return `${items.length} ${noun} for ${count} agents: expected one for every agent, or one per agent`;
}

/**
 * Why `ports` cannot be split among `count` agents (undefined when it can): an inclusive range
 * within 1..65535 with at least one port per agent.
 */
export function agentPortsProblem(ports: PortRange, count: number): string | undefined {
  const [begin, end] = ports;
  if (!(Number.isInteger(begin) && Number.isInteger(end) && begin >= 1 && begin <= end && end <= 65535)) {
    return `expected an inclusive range BEGIN-END within 1..65535, got ${begin}-${end}`;
  }
  if (end - begin + 1 < count) return `${end - begin + 1} port(s) cannot be split among ${count} agents: expected at least one port per agent`;
  return undefined;
}

/**
 * Resolves `agents` (a count or a list) into agents, sorted by id. A count splits this host's
 * cpus and memory evenly, and `ports` (default {@link defaultAgentPorts}) into one consecutive
 * share per agent (the last takes what does not divide evenly), so that ports never clash; a list
 * brings its own ranges. Throws RangeError on a `ports` range that cannot be split, duplicate ids
 * or overlapping port ranges on one hostname (two agents on one host would hand out the same
 * port twice).
 */
export function resolveAgents(
  agents: number | readonly LocalAgentOptions[] | undefined, ports?: PortRange, attributes?: readonly Readonly<Record<string, string>>[],
  domains?: readonly AgentDomain[],
): LocalAgent[] {
  const list = typeof agents === 'object' ? agents : defaultAgents(agents ?? 1, ports, attributes, domains);
  if (list.length === 0) throw new RangeError('the local cluster needs at least one agent');
  const resolved = list.map((o, i) => resolveAgent(o, i));
  checkDistinct(resolved);
  return resolved.sort((a, b) => (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));
}

function defaultAgents(
  count: number, ports: PortRange = defaultAgentPorts(count), attributes: readonly Readonly<Record<string, string>>[] = [], domains: readonly AgentDomain[] = [],
): LocalAgentOptions[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`agents must be a positive integer, got ${count}`);
  const attributesProblem = perAgentProblem('attribute lists', attributes, count);
  if (attributesProblem !== undefined) throw new RangeError(attributesProblem);
  const domainsProblem = perAgentProblem('domains', domains, count);
  if (domainsProblem !== undefined) throw new RangeError(domainsProblem);
  const problem = agentPortsProblem(ports, count);
  if (problem !== undefined) throw new RangeError(`agent ports: ${problem}`);
  const [first, last] = ports;
  const share = Math.floor((last - first + 1) / count);
  const cpus = Math.max(0.1, Math.floor((availableParallelism() / count) * 10) / 10);
  const memMib = Math.max(64, Math.floor(totalmem() / (1024 * 1024) / count));
  return Array.from({ length: count }, (_, i) => ({
    cpus,
    memMib,
    diskMib: DEFAULT_DISK_MIB,
    ports: [first + i * share, i === count - 1 ? last : first + (i + 1) * share - 1] as const,
    ...(attributes.length === 0 ? {} : { attributes: attributes[attributes.length === 1 ? 0 : i] }),
    ...(domains.length === 0 ? {} : domains[domains.length === 1 ? 0 : i]),
  }));
}

/**
 * The address of a task on a local agent, which the agent reports with its executors' updates as
 * a Mesos agent reports its own IP for a task on the host network: the agent's hostname when that
 * is an IP address, else 127.0.0.1 (every local agent's tasks run on this host, which its loopback
 * address reaches whatever the agent is named).
 */
export function hostNetworkAddresses(hostname: string): readonly IpAddress[] {
  const version = isIP(hostname);
  if (version === 0) return [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }];
  return [{ ipAddress: hostname, protocol: version === 6 ? 'IPv6' : 'IPv4' }];
}

function resolveAgent(o: LocalAgentOptions, index: number): LocalAgent {
  const agentId = o.agentId ?? `local-agent-${index + 1}`;
  const [begin, end] = o.ports;
  if (!(Number.isInteger(begin) && Number.isInteger(end) && begin >= 1 && begin <= end && end <= 65535)) {
    throw new RangeError(`agent ${agentId}: ports must be an inclusive range within 1..65535, got [${begin}, ${end}]`);
  }
  const info: { -readonly [K in keyof AgentInfo]: AgentInfo[K] } = {
    agentId,
    hostname: o.hostname ?? DEFAULT_HOSTNAME,
    attributes: Object.entries(o.attributes ?? {}).map(([name, text]) => {
      const typed = attributeFromText(name, text);
      if ('error' in typed) throw new RangeError(`agent ${agentId}: attribute ${name}: ${typed.error}`);
      return typed;
    }),
  };
  if (o.region !== undefined) info.region = o.region;
  if (o.zone !== undefined) info.zone = o.zone;
  const capacity = { cpusMilli: toMilli(o.cpus), memMilli: toMilli(o.memMib), diskMilli: toMilli(o.diskMib), gpus: o.gpus ?? 0 };
  return { agentId, info, capacity, ports: [[begin, end]] };
}

function checkDistinct(agents: readonly LocalAgent[]): void {
  for (let i = 0; i < agents.length; i++) {
    for (let j = i + 1; j < agents.length; j++) {
      const [a, b] = [agents[i], agents[j]];
      if (a.agentId === b.agentId) throw new RangeError(`duplicate agent id ${a.agentId}`);
      if (a.info.hostname === b.info.hostname && rangesOverlap(a.ports, b.ports)) {
        throw new RangeError(`agents ${a.agentId} and ${b.agentId} share hostname ${a.info.hostname} and overlapping ports`);
      }
    }
  }
}
