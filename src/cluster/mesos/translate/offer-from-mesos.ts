import type { AgentAttribute, AgentInfo } from '../../../scheduler/model/agent';
import type { Offer, OfferedPool } from '../../../scheduler/model/offer';
import { toMilli, type PortRange } from '../../../scheduler/model/resources';
import type { Offer as MesosOffer, Resource } from '../codec/mesos-model';
import { agentAttributeFromMesos, rangesOf } from './agent-attribute-from-mesos';
import { isCoreUsable, reservationRole } from './reservation-role';

/** A pool being summed up; `reservedFor` undefined = unreserved. */
interface PoolSum {
  readonly reservedFor?: string;
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  ports: PortRange[];
}

/**
 * Translates a Mesos offer (mesos-v1-scheduler-api.md §3.2) into the core's {@link Offer}.
 *
 * - Pools: resources are grouped by reservation role (§4.2, both the pre-refinement `role` /
 *   `reservation` and the post-refinement `reservations` stack). Unreserved (`*`) resources form
 *   the pool without `reservedFor`; static and dynamic reservations for one role share that role's
 *   pool. The unreserved pool comes first, then reserved pools in order of first appearance.
 * - Quantities: `cpus`, `mem`, `disk` as integer milli-units (Mesos keeps three decimals, §4.1);
 *   `gpus` whole (Mesos only offers whole GPUs); `ports` as inclusive ranges sorted by begin.
 *   Other resource names are ignored. Resources the core cannot use (revocable, shared,
 *   persistent or source disks, provider resources: {@link isCoreUsable}) are left out, so they
 *   go back to Mesos with the offer's leftovers.
 * - `allocationRole` from `allocation_info.role` (MULTI_ROLE), the offer's or else its resources'.
 * - Agent: id, hostname, attributes typed for constraints (§4.4), region/zone from the fault
 *   domain (§4.5; absent when the agent has none).
 */
export function offerFromMesos(offer: MesosOffer): Offer {
  const allocationRole = offer.allocationInfo?.role ?? offer.resources?.find((r) => r.allocationInfo?.role !== undefined)?.allocationInfo?.role;
  const result: { -readonly [K in keyof Offer]: Offer[K] } = {
    offerId: offer.id.value,
    agent: agentOf(offer),
    pools: poolsOf(offer.resources ?? []),
  };
  if (allocationRole !== undefined) result.allocationRole = allocationRole;
  return result;
}

function agentOf(offer: MesosOffer): AgentInfo {
  const attributes: AgentAttribute[] = [];
  for (const attr of offer.attributes ?? []) {
    const converted = agentAttributeFromMesos(attr);
    if (converted !== undefined) attributes.push(converted);
  }
  const agent: { -readonly [K in keyof AgentInfo]: AgentInfo[K] } = {
    agentId: offer.agentId.value,
    hostname: offer.hostname,
    attributes,
  };
  const domain = offer.domain?.faultDomain;
  if (domain !== undefined) {
    agent.region = domain.region.name;
    agent.zone = domain.zone.name;
  }
  return agent;
}

function poolsOf(resources: readonly Resource[]): OfferedPool[] {
  const unreserved = emptyPool(undefined);
  const reserved = new Map<string, PoolSum>();
  let sawUnreserved = false;
  for (const resource of resources) {
    if (!isCoreUsable(resource) || !isKnown(resource.name)) continue;
    const role = reservationRole(resource);
    if (role === undefined) sawUnreserved = true;
    add(role === undefined ? unreserved : reservedPool(reserved, role), resource);
  }
  const pools = sawUnreserved ? [unreserved, ...reserved.values()] : [...reserved.values()];
  return pools.map(frozen);
}

function reservedPool(reserved: Map<string, PoolSum>, role: string): PoolSum {
  let pool = reserved.get(role);
  if (pool === undefined) {
    pool = emptyPool(role);
    reserved.set(role, pool);
  }
  return pool;
}

const KNOWN = new Set(['cpus', 'mem', 'disk', 'gpus', 'ports']);

function isKnown(name: string): boolean {
  return KNOWN.has(name);
}

function emptyPool(reservedFor: string | undefined): PoolSum {
  return reservedFor === undefined
    ? { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] }
    : { reservedFor, cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };
}

function add(pool: PoolSum, resource: Resource): void {
  const scalar = resource.type === 'SCALAR' ? (resource.scalar?.value ?? 0) : 0;
  switch (resource.name) {
    case 'cpus': pool.cpusMilli += toMilli(scalar); break;
    case 'mem': pool.memMilli += toMilli(scalar); break;
    case 'disk': pool.diskMilli += toMilli(scalar); break;
    case 'gpus': pool.gpus += Math.floor(scalar); break;
    case 'ports':
      if (resource.type === 'RANGES') pool.ports.push(...rangesOf(resource.ranges?.range));
      break;
  }
}

function frozen(pool: PoolSum): OfferedPool {
  const ports = [...pool.ports].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const base = { cpusMilli: pool.cpusMilli, memMilli: pool.memMilli, diskMilli: pool.diskMilli, gpus: pool.gpus, ports };
  return pool.reservedFor === undefined ? base : { reservedFor: pool.reservedFor, ...base };
}
