import type { AgentAttribute, AgentInfo } from '../../../scheduler/model/agent';
import type { Offer, OfferedPool, Unavailability } from '../../../scheduler/model/offer';
import type { PersistentVolume } from '../../../scheduler/model/reservation';
import { toMilli, type PortRange } from '../../../scheduler/model/resources';
import type { Offer as MesosOffer, Resource, Unavailability as MesosUnavailability } from '../codec/mesos-model';
import { agentAttributeFromMesos, rangesOf } from './agent-attribute-from-mesos';
import { nanosToMs } from './nanos-to-ms';
import { ownReservationId } from './reservation-labels';
import { isCoreUsable, reservationRole } from './reservation-role';

/** A pool being summed up; `reservedFor` undefined = unreserved. */
interface PoolSum {
  readonly reservedFor?: string;
  readonly reservationId?: string;
  readonly volumes: PersistentVolume[];
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
 *   the pool without `reservedFor`; a role's static reservations form that role's pool. The
 *   unreserved pool comes first, then reserved pools in order of first appearance.
 * - Resident instances: a dynamic reservation labelled by this framework (`frameworkId`; the
 *   labels Marathon uses, reservation-labels.ts) is a pool of its own with `reservationId` (the
 *   instance id from the labels); the persistent volumes on it (`disk.persistence`) are its
 *   `volumes` (persistence id, `disk.volume.container_path`, size) and their disk counts in the
 *   pool's `diskMilli`, as the core's model counts a reservation's disk. Dynamic reservations of
 *   other frameworks, or without these labels, are left out (never launched on, as in Marathon);
 *   static reservations form their role's pool.
 * - Quantities: `cpus`, `mem`, `disk` as integer milli-units (Mesos keeps three decimals, §4.1);
 *   `gpus` whole (Mesos only offers whole GPUs); `ports` as inclusive ranges sorted by begin.
 *   Other resource names are ignored. Resources the core cannot use (revocable, shared,
 *   persistent or source disks, provider resources: {@link isCoreUsable}) are left out, so they
 *   go back to Mesos with the offer's leftovers.
 * - `allocationRole` from `allocation_info.role` (MULTI_ROLE), the offer's or else its resources'.
 * - Agent: id, hostname, attributes typed for constraints (§4.4), region/zone from the fault
 *   domain (§4.5; absent when the agent has none).
 * - `unavailability` (§3.2, field 9): the agent's maintenance window, `start` (TimeInfo) and
 *   `duration` (DurationInfo), nanoseconds to whole milliseconds rounded down (Marathon's
 *   `Timestamp.toTimestamp` and `toDuration` truncate the same way after 1970); no `duration`: the window
 *   lasts forever (no `durationMs`). The matcher's maintenance rule reads it (matcher/maintenance.ts).
 */
export function offerFromMesos(offer: MesosOffer, frameworkId?: string): Offer {
  const allocationRole = offer.allocationInfo?.role ?? offer.resources?.find((r) => r.allocationInfo?.role !== undefined)?.allocationInfo?.role;
  const result: { -readonly [K in keyof Offer]: Offer[K] } = {
    offerId: offer.id.value,
    agent: agentOf(offer),
    pools: poolsOf(offer.resources ?? [], frameworkId),
  };
  if (allocationRole !== undefined) result.allocationRole = allocationRole;
  if (offer.unavailability !== undefined) result.unavailability = unavailabilityOf(offer.unavailability);
  return result;
}

function unavailabilityOf(window: MesosUnavailability): Unavailability {
  const startMs = nanosToMs(window.start.nanoseconds);
  return window.duration === undefined ? { startMs } : { startMs, durationMs: nanosToMs(window.duration.nanoseconds) };
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

function poolsOf(resources: readonly Resource[], frameworkId: string | undefined): OfferedPool[] {
  const unreserved = emptyPool(undefined, undefined);
  const reserved = new Map<string, PoolSum>();
  let sawUnreserved = false;
  for (const resource of resources) {
    if (!isCoreUsable(resource, frameworkId) || !isKnown(resource.name)) continue;
    const role = reservationRole(resource);
    if (role === undefined) sawUnreserved = true;
    const reservationId = role === undefined ? undefined : ownReservationId(resource, frameworkId);
    add(role === undefined ? unreserved : reservedPool(reserved, role, reservationId), resource);
  }
  const pools = sawUnreserved ? [unreserved, ...reserved.values()] : [...reserved.values()];
  return pools.map(frozen);
}

function reservedPool(reserved: Map<string, PoolSum>, role: string, reservationId: string | undefined): PoolSum {
  const key = reservationId === undefined ? role : `${role}\u0000${reservationId}`;
  let pool = reserved.get(key);
  if (pool === undefined) {
    pool = emptyPool(role, reservationId);
    reserved.set(key, pool);
  }
  return pool;
}

const KNOWN = new Set(['cpus', 'mem', 'disk', 'gpus', 'ports']);

function isKnown(name: string): boolean {
  return KNOWN.has(name);
}

function emptyPool(reservedFor: string | undefined, reservationId: string | undefined): PoolSum {
  if (reservedFor === undefined) return { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [], volumes: [] };
  return { reservedFor, ...(reservationId === undefined ? {} : { reservationId }), cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [], volumes: [] };
}

function add(pool: PoolSum, resource: Resource): void {
  const scalar = resource.type === 'SCALAR' ? (resource.scalar?.value ?? 0) : 0;
  switch (resource.name) {
    case 'cpus': pool.cpusMilli += toMilli(scalar); break;
    case 'mem': pool.memMilli += toMilli(scalar); break;
    case 'disk': {
      pool.diskMilli += toMilli(scalar);
      const persistence = resource.disk?.persistence;
      if (persistence !== undefined && pool.reservationId !== undefined) {
        pool.volumes.push({ persistenceId: persistence.id, containerPath: resource.disk?.volume?.containerPath ?? '', diskMilli: toMilli(scalar) });
      }
      break;
    }
    case 'gpus': pool.gpus += Math.floor(scalar); break;
    case 'ports':
      if (resource.type === 'RANGES') pool.ports.push(...rangesOf(resource.ranges?.range));
      break;
  }
}

function frozen(pool: PoolSum): OfferedPool {
  const ports = [...pool.ports].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const base = { cpusMilli: pool.cpusMilli, memMilli: pool.memMilli, diskMilli: pool.diskMilli, gpus: pool.gpus, ports };
  if (pool.reservedFor === undefined) return base;
  if (pool.reservationId === undefined) return { reservedFor: pool.reservedFor, ...base };
  return { reservedFor: pool.reservedFor, reservationId: pool.reservationId, volumes: pool.volumes, ...base };
}
