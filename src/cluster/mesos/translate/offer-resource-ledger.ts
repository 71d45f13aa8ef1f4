import type { OfferedPool } from '../../../scheduler/model/offer';
import type { PersistentVolume } from '../../../scheduler/model/reservation';
import { fromMilli, toMilli, type PortRange } from '../../../scheduler/model/resources';
import type { AllocationInfo, Offer as MesosOffer, Resource } from '../codec/mesos-model';
import { rangesOf } from './agent-attribute-from-mesos';
import { ownReservationId } from './reservation-labels';
import { isCoreUsable, reservationRole } from './reservation-role';

/**
 * One offered Mesos resource (or one made by a RESERVE, CREATE or DESTROY earlier in the same
 * ACCEPT) and what is still untaken of it. `reservationId` is set on this framework's labelled
 * dynamic reservations, `persistenceId` on a persistent volume (taken whole, by its id).
 */
interface Entry {
  readonly source: Resource;
  readonly role: string | undefined;
  readonly reservationId: string | undefined;
  readonly persistenceId: string | undefined;
  leftMilli: number;
  readonly leftRanges: [number, number][];
}

type ScalarName = 'cpus' | 'mem' | 'disk' | 'gpus';

/**
 * Turns what the core took from an offer (its pools: a reservation role and quantities) back into
 * Mesos `Resource`s. mesos-v1-scheduler-api.md §4.3: resources launched with are copies of the
 * offered ones — same `allocation_info`, `role` / `reservation` / `reservations` exactly as
 * offered — with only the quantity shrunk (a lower scalar, a sub-range of ports). A pool of the
 * core may stand for several offered resources (a static and a dynamic reservation of one role,
 * or two port resources); they are drawn in offer order. The ledger remembers what earlier takes
 * consumed, so an executor and the tasks of one group never claim the same share twice (§4.3:
 * the sum of all tasks and executors must fit the offer).
 *
 * Pools with a `reservationId` draw only from this framework's dynamic reservation of that id
 * (its labels, reservation-labels.ts); a launch's persistent volumes are taken whole by their
 * persistence id and count in their pool's disk. The reservation operations of an ACCEPT
 * (reservation-to-mesos.ts) change the ledger as Mesos applies them in order (§2.3): RESERVE turns
 * unreserved entries into reserved ones, CREATE reserved disk into a volume, DESTROY a volume back
 * into reserved disk, so a LAUNCH or UNRESERVE later in the same ACCEPT finds them.
 *
 * Throws when a take does not fit the offer: the core only hands out what it was offered, so
 * that is a bug, and a launch Mesos would refuse anyway. After a throw the ledger is spent
 * (part of the take may have been booked): translate the ACCEPT again from a new ledger.
 */
export class OfferResourceLedger {
  private readonly entries: Entry[];
  private readonly allocationInfo: AllocationInfo | undefined;

  constructor(offer: MesosOffer, private readonly frameworkId?: string) {
    this.allocationInfo = offer.allocationInfo;
    this.entries = (offer.resources ?? []).filter((r) => isCoreUsable(r, frameworkId)).map((source) => this.entryOf(source));
  }

  /**
   * The Mesos resources of these pools: the persistent volumes of `volumes` that are on a pool's
   * reservation (whole), then cpus, mem, disk (less those volumes), gpus and ports, per pool;
   * zero amounts omitted.
   */
  take(pools: readonly OfferedPool[], volumes: readonly PersistentVolume[] = []): Resource[] {
    const out: Resource[] = [];
    for (const pool of pools) {
      const key: PoolKey = { role: pool.reservedFor, reservationId: pool.reservationId };
      let diskMilli = pool.diskMilli;
      if (pool.reservationId !== undefined) {
        for (const v of volumes) {
          const volume = this.takeVolume(key, v.persistenceId);
          diskMilli -= toMilli(volume.scalar?.value ?? 0);
          out.push(volume);
        }
      }
      out.push(...this.takeScalar('cpus', key, pool.cpusMilli));
      out.push(...this.takeScalar('mem', key, pool.memMilli));
      out.push(...this.takeScalar('disk', key, diskMilli));
      out.push(...this.takeScalar('gpus', key, pool.gpus * 1000));
      out.push(...this.takePorts(key, pool.ports));
    }
    return out;
  }

  /**
   * Puts resources made by an operation of this ACCEPT (a reservation, a volume, disk freed by a
   * DESTROY) into the ledger, to be taken by later operations.
   */
  add(resources: readonly Resource[]): void {
    for (const r of resources) this.entries.push(this.entryOf(r));
  }

  /** The persistent volume `persistenceId` on the reservation `key`, taken whole. */
  takeVolume(key: PoolKey, persistenceId: string): Resource {
    const entry = this.entries.find((e) => e.persistenceId === persistenceId && e.leftMilli > 0 && e.role === key.role && e.reservationId === key.reservationId);
    if (entry === undefined) throw new Error(`operation does not fit the offer: persistent volume ${persistenceId} is not offered on reservation ${key.reservationId ?? '?'}`);
    const taken = entry.leftMilli;
    entry.leftMilli = 0;
    return this.copy(entry.source, { scalar: { value: fromMilli(taken) } });
  }

  private entryOf(source: Resource): Entry {
    return {
      source,
      role: reservationRole(source),
      reservationId: ownReservationId(source, this.frameworkId),
      persistenceId: source.disk?.persistence?.id,
      leftMilli: source.type === 'SCALAR' ? toMilli(source.scalar?.value ?? 0) : 0,
      leftRanges: source.type === 'RANGES' ? rangesOf(source.ranges?.range).map(([b, e]) => [b, e] as [number, number]) : [],
    };
  }

  private takeScalar(name: ScalarName, key: PoolKey, amountMilli: number): Resource[] {
    const out: Resource[] = [];
    let need = amountMilli;
    for (const entry of this.entries) {
      if (need <= 0) break;
      if (entry.source.name !== name || !plainOf(entry, key) || entry.leftMilli <= 0) continue;
      const taken = Math.min(need, entry.leftMilli);
      entry.leftMilli -= taken;
      need -= taken;
      out.push(this.copy(entry.source, { scalar: { value: fromMilli(taken) } }));
    }
    if (need > 0) throw new Error(`operation does not fit the offer: ${fromMilli(need)} ${name} missing for ${describe(key)}`);
    return out;
  }

  private takePorts(key: PoolKey, ranges: readonly PortRange[]): Resource[] {
    const taken = new Map<Entry, [number, number][]>();
    for (const [begin, end] of ranges) {
      let from = begin;
      while (from <= end) {
        const [entry, to] = this.carve(key, from, end);
        const list = taken.get(entry) ?? [];
        taken.set(entry, list);
        list.push([from, to]);
        from = to + 1;
      }
    }
    return [...taken].map(([entry, list]) => this.copy(entry.source, { ranges: { range: merged(list).map(([b, e]) => ({ begin: b, end: e })) } }));
  }

  /** Removes `[from, ≤ end]` from the first port entry of `key` holding `from`; returns it and the last port removed. */
  private carve(key: PoolKey, from: number, end: number): [Entry, number] {
    for (const entry of this.entries) {
      if (entry.source.name !== 'ports' || !plainOf(entry, key)) continue;
      const i = entry.leftRanges.findIndex((r) => from >= r[0] && from <= r[1]);
      if (i < 0) continue;
      const range = entry.leftRanges[i];
      const to = Math.min(end, range[1]);
      const rest: [number, number][] = [];
      if (range[0] < from) rest.push([range[0], from - 1]);
      if (to < range[1]) rest.push([to + 1, range[1]]);
      entry.leftRanges.splice(i, 1, ...rest);
      return [entry, to];
    }
    throw new Error(`operation does not fit the offer: port ${from} not offered for ${describe(key)}`);
  }

  /** The offered resource with another quantity; `allocation_info` kept, or the offer's when absent. */
  private copy(source: Resource, quantity: Pick<Resource, 'scalar' | 'ranges'>): Resource {
    const { scalar: _scalar, ranges: _ranges, set: _set, ...identity } = source;
    const allocationInfo = source.allocationInfo ?? this.allocationInfo;
    return { ...identity, ...quantity, ...(allocationInfo === undefined ? {} : { allocationInfo }) };
  }
}

/** Which entries a pool draws from: a role (undefined = unreserved) and, for a resident instance, its reservation. */
export interface PoolKey {
  readonly role: string | undefined;
  readonly reservationId: string | undefined;
}

/** Whether `entry` is a plain (not a volume) resource of the pool `key`. */
function plainOf(entry: Entry, key: PoolKey): boolean {
  return entry.role === key.role && entry.reservationId === key.reservationId && entry.persistenceId === undefined;
}

function describe(key: PoolKey): string {
  return key.reservationId === undefined ? `role ${key.role ?? '*'}` : `reservation ${key.reservationId} of role ${key.role ?? '*'}`;
}

/** Sorted ranges with touching or overlapping neighbours joined: `[5,5],[6,6]` → `[5,6]`. */
function merged(ranges: readonly [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
