import type { OfferedPool } from '../../../scheduler/model/offer';
import { fromMilli, toMilli, type PortRange } from '../../../scheduler/model/resources';
import type { AllocationInfo, Offer as MesosOffer, Resource } from '../codec/mesos-model';
import { isCoreUsable, reservationRole } from './reservation-role';

/** One offered Mesos resource and what is still untaken of it. */
interface Entry {
  readonly source: Resource;
  readonly role: string | undefined;
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
 * Throws when a take does not fit the offer: the core only hands out what it was offered, so
 * that is a bug, and a launch Mesos would refuse anyway. After a throw the ledger is spent
 * (part of the take may have been booked): translate the ACCEPT again from a new ledger.
 */
export class OfferResourceLedger {
  private readonly entries: Entry[];
  private readonly allocationInfo: AllocationInfo | undefined;

  constructor(offer: MesosOffer) {
    this.allocationInfo = offer.allocationInfo;
    this.entries = (offer.resources ?? []).filter(isCoreUsable).map((source) => ({
      source,
      role: reservationRole(source),
      leftMilli: source.type === 'SCALAR' ? toMilli(source.scalar?.value ?? 0) : 0,
      leftRanges: source.type === 'RANGES' ? (source.ranges?.range ?? []).map((r) => [r.begin, r.end] as [number, number]) : [],
    }));
  }

  /** The Mesos resources of these pools: cpus, mem, disk, gpus, then ports, per pool; zero amounts omitted. */
  take(pools: readonly OfferedPool[]): Resource[] {
    const out: Resource[] = [];
    for (const pool of pools) {
      const role = pool.reservedFor;
      out.push(...this.takeScalar('cpus', role, pool.cpusMilli));
      out.push(...this.takeScalar('mem', role, pool.memMilli));
      out.push(...this.takeScalar('disk', role, pool.diskMilli));
      out.push(...this.takeScalar('gpus', role, pool.gpus * 1000));
      out.push(...this.takePorts(role, pool.ports));
    }
    return out;
  }

  private takeScalar(name: ScalarName, role: string | undefined, amountMilli: number): Resource[] {
    const out: Resource[] = [];
    let need = amountMilli;
    for (const entry of this.entries) {
      if (need <= 0) break;
      if (entry.source.name !== name || entry.role !== role || entry.leftMilli <= 0) continue;
      const taken = Math.min(need, entry.leftMilli);
      entry.leftMilli -= taken;
      need -= taken;
      out.push(this.copy(entry.source, { scalar: { value: fromMilli(taken) } }));
    }
    if (need > 0) throw new Error(`launch does not fit the offer: ${fromMilli(need)} ${name} missing for role ${role ?? '*'}`);
    return out;
  }

  private takePorts(role: string | undefined, ranges: readonly PortRange[]): Resource[] {
    const taken = new Map<Entry, [number, number][]>();
    for (const [begin, end] of ranges) {
      let from = begin;
      while (from <= end) {
        const [entry, to] = this.carve(role, from, end);
        const list = taken.get(entry) ?? [];
        taken.set(entry, list);
        list.push([from, to]);
        from = to + 1;
      }
    }
    return [...taken].map(([entry, list]) => this.copy(entry.source, { ranges: { range: merged(list).map(([b, e]) => ({ begin: b, end: e })) } }));
  }

  /** Removes `[from, ≤ end]` from the first port entry of `role` holding `from`; returns it and the last port removed. */
  private carve(role: string | undefined, from: number, end: number): [Entry, number] {
    for (const entry of this.entries) {
      if (entry.source.name !== 'ports' || entry.role !== role) continue;
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
    throw new Error(`launch does not fit the offer: port ${from} not offered for role ${role ?? '*'}`);
  }

  /** The offered resource with another quantity; `allocation_info` kept, or the offer's when absent. */
  private copy(source: Resource, quantity: Pick<Resource, 'scalar' | 'ranges'>): Resource {
    const { scalar: _scalar, ranges: _ranges, set: _set, ...identity } = source;
    const allocationInfo = source.allocationInfo ?? this.allocationInfo;
    return { ...identity, ...quantity, ...(allocationInfo === undefined ? {} : { allocationInfo }) };
  }
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
