import type { AgentAttribute, AgentInfo } from '../../src/scheduler/model/agent';
import type { Offer, OfferedPool } from '../../src/scheduler/model/offer';
import { toMilli, type PortRange } from '../../src/scheduler/model/resources';

/** An attribute value: text, scalar, ranges (`[[b, e], …]`) or set (`['a', 'b']`). */
export type AttributeValue = string | number | readonly PortRange[] | readonly string[];

export interface AgentOverrides {
  readonly agentId?: string;
  readonly hostname?: string;
  readonly zone?: string;
  readonly region?: string;
  /** By name; or already-typed attributes. */
  readonly attributes?: Readonly<Record<string, AttributeValue>> | readonly AgentAttribute[];
}

/** An agent; `agentId` defaults to `agent-<hostname>`, hostname to `host-1`. */
export function makeAgent(o: AgentOverrides = {}): AgentInfo {
  const hostname = o.hostname ?? 'host-1';
  const agent: { -readonly [K in keyof AgentInfo]: AgentInfo[K] } = {
    agentId: o.agentId ?? `agent-${hostname}`,
    hostname,
    attributes: attributesOf(o.attributes),
  };
  if (o.region !== undefined) agent.region = o.region;
  if (o.zone !== undefined) agent.zone = o.zone;
  return agent;
}

/** One pool of reserved resources in natural units. */
export interface ReservedOverrides {
  readonly role: string;
  readonly cpus?: number;
  readonly mem?: number;
  readonly disk?: number;
  readonly gpus?: number;
  readonly ports?: readonly PortRange[];
  /** A dynamic reservation of one resident instance (its instance id), as the master offers it back. */
  readonly reservationId?: string;
}

export interface OfferOverrides {
  readonly offerId?: string;
  /** An agent, or overrides for {@link makeAgent}. */
  readonly agent?: AgentInfo | AgentOverrides;
  /** Unreserved amounts (defaults: 4 cpus, 4096 MiB, 10000 MiB disk, 0 gpus, ports 31000–32000). */
  readonly cpus?: number;
  readonly mem?: number;
  readonly disk?: number;
  readonly gpus?: number;
  readonly ports?: readonly PortRange[];
  /** false: no unreserved pool at all (an offer of reserved resources only). */
  readonly unreserved?: boolean;
  readonly reserved?: readonly ReservedOverrides[];
  readonly allocationRole?: string;
}

let offerCounter = 0;

/** Restart the automatic offer ids (`offer-1`, `offer-2`, …), e.g. before a determinism replay. */
export function resetOfferIds(): void {
  offerCounter = 0;
}

/**
 * An offer: one unreserved pool (unless `unreserved: false`) followed by one pool per `reserved`
 * entry. Amounts are in natural units and converted to the core's milli-units.
 */
export function makeOffer(o: OfferOverrides = {}): Offer {
  const agent = o.agent !== undefined && isAgent(o.agent) ? o.agent : makeAgent(o.agent as AgentOverrides | undefined);
  const pools: OfferedPool[] = [];
  if (o.unreserved !== false) {
    pools.push(pool(undefined, o.cpus ?? 4, o.mem ?? 4096, o.disk ?? 10_000, o.gpus ?? 0, o.ports ?? [[31000, 32000]]));
  }
  for (const r of o.reserved ?? []) {
    const p = pool(r.role, r.cpus ?? 0, r.mem ?? 0, r.disk ?? 0, r.gpus ?? 0, r.ports ?? []);
    pools.push(r.reservationId === undefined ? p : { ...p, reservationId: r.reservationId });
  }
  const offer: { -readonly [K in keyof Offer]: Offer[K] } = { offerId: o.offerId ?? `offer-${++offerCounter}`, agent, pools };
  if (o.allocationRole !== undefined) offer.allocationRole = o.allocationRole;
  return offer;
}

function pool(reservedFor: string | undefined, cpus: number, mem: number, disk: number, gpus: number, ports: readonly PortRange[]): OfferedPool {
  const p: OfferedPool = { cpusMilli: toMilli(cpus), memMilli: toMilli(mem), diskMilli: toMilli(disk), gpus, ports: ports.map((r) => [r[0], r[1]] as const) };
  return reservedFor === undefined ? p : { reservedFor, ...p };
}

function isAgent(a: AgentInfo | AgentOverrides): a is AgentInfo {
  return typeof a.agentId === 'string' && typeof a.hostname === 'string' && Array.isArray(a.attributes);
}

function attributesOf(attrs: AgentOverrides['attributes']): AgentAttribute[] {
  if (attrs === undefined) return [];
  if (Array.isArray(attrs)) return [...(attrs as readonly AgentAttribute[])];
  return Object.entries(attrs as Record<string, AttributeValue>).map(([name, v]): AgentAttribute => {
    if (typeof v === 'string') return { name, type: 'text', text: v };
    if (typeof v === 'number') return { name, type: 'scalar', scalar: v };
    if (v.length > 0 && Array.isArray(v[0])) return { name, type: 'ranges', ranges: v as readonly PortRange[] };
    return { name, type: 'set', set: v as readonly string[] };
  });
}
