import type { OfferedPool } from '../scheduler/model/offer';
import type { PersistentVolume } from '../scheduler/model/reservation';
import type { PortRange } from '../scheduler/model/resources';
import { normalizeRanges, subtractRanges, unionRanges } from './port-ranges';

/**
 * Amounts of one resource pool of an agent, in the offer's units: scalars in integer milli-units
 * (`gpus` as a count), ports as normalized inclusive ranges. `reservedFor` is undefined for the
 * unreserved (`*`) pool and the role for a reserved pool — the same shape as an offer's pool and an
 * instance's `allocation`, so books, offers and allocations compare directly.
 */
export type PoolAmounts = OfferedPool;

/** A dynamic reservation as the ledger books it (see {@link AgentLedger.reservations}). */
export interface DynamicReservation {
  readonly role: string;
  readonly reservationId: string;
  /** Its amounts, in the offer's units (`reservedFor` and `reservationId` set). */
  readonly capacity: PoolAmounts;
  readonly volumes: readonly PersistentVolume[];
}

interface PoolBook {
  readonly reservedFor?: string;
  /** A dynamic reservation of one resident instance (its labels); undefined for static pools. */
  readonly reservationId?: string;
  capacity: PoolAmounts;
  /** Persistent volumes on a dynamic reservation's disk. */
  volumes: readonly PersistentVolume[];
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  ports: readonly PortRange[];
}

/**
 * The resource books of one agent, the master model's ledger: capacity and usage per pool (the
 * unreserved pool first, then one pool per reserved role in role order). Usage changes only
 * through {@link consume} and {@link release}, always by exactly an executor's `allocation`; what
 * is left ({@link available}) is cached until the next change, so building offers costs O(pools).
 *
 * A pool is identified by its reservation ({@link poolKey}); docs/architecture.md ("The master
 * model") says how dynamic reservations with labels and persistent volumes extend the key.
 */
export class AgentLedger {
  private books: PoolBook[];
  private readonly byKey = new Map<string, PoolBook>();
  private availableCache: readonly PoolAmounts[] | undefined;

  /** @param pools the agent's resources; pools of one reservation are added up. */
  constructor(pools: readonly PoolAmounts[]) {
    const merged = new Map<string, PoolAmounts[]>();
    const unreserved: PoolAmounts[] = [];
    for (const p of pools) {
      if (p.reservedFor === undefined) {
        unreserved.push(p);
        continue;
      }
      const list = merged.get(p.reservedFor) ?? [];
      list.push(p);
      merged.set(p.reservedFor, list);
    }
    const roles = [...merged.keys()].sort(compareStrings);
    this.books = [book(undefined, unreserved), ...roles.map((role) => book(role, merged.get(role) ?? []))];
    for (const b of this.books) this.byKey.set(poolKey(b.reservedFor), b);
  }

  /**
   * RESERVE: `amounts` leave the unreserved pool and become the dynamic reservation
   * `reservationId` for `role` (labelled; Mesos `Resource.reservations` with labels). The ACCEPT
   * check has verified that the unreserved pool has them free.
   */
  reserve(role: string, reservationId: string, amounts: PoolAmounts): void {
    const unreserved = this.mustBook(undefined, undefined);
    unreserved.capacity = minus(unreserved.capacity, amounts);
    const existing = this.byKey.get(poolKey(role, reservationId));
    if (existing !== undefined) existing.capacity = plus(existing.capacity, amounts, role, reservationId);
    else {
      const b: PoolBook = { ...book(role, []), reservationId, capacity: plus(amounts, ZERO, role, reservationId), volumes: [] };
      this.books.push(b);
      this.byKey.set(poolKey(role, reservationId), b);
    }
    this.availableCache = undefined;
  }

  /** UNRESERVE: the whole dynamic reservation goes back to the unreserved pool (no volume, no use left). */
  unreserve(role: string, reservationId: string): void {
    const b = this.mustBook(role, reservationId);
    const unreserved = this.mustBook(undefined, undefined);
    unreserved.capacity = plus(unreserved.capacity, b.capacity, undefined, undefined);
    this.books = this.books.filter((x) => x !== b);
    this.byKey.delete(poolKey(role, reservationId));
    this.availableCache = undefined;
  }

  /** CREATE / DESTROY: the persistent volumes on a dynamic reservation. */
  setVolumes(role: string, reservationId: string, volumes: readonly PersistentVolume[]): void {
    this.mustBook(role, reservationId).volumes = volumes;
    this.availableCache = undefined;
  }

  /** The dynamic reservation `reservationId` as booked (capacity, volumes), or undefined. */
  reservation(role: string, reservationId: string): { readonly capacity: PoolAmounts; readonly volumes: readonly PersistentVolume[]; readonly inUse: boolean } | undefined {
    const b = this.byKey.get(poolKey(role, reservationId));
    if (b === undefined) return undefined;
    const inUse = b.cpusMilli > 0 || b.memMilli > 0 || b.diskMilli > 0 || b.gpus > 0 || b.ports.length > 0;
    return { capacity: b.capacity, volumes: b.volumes, inUse };
  }

  /** Every dynamic reservation of the agent (role, id, capacity, volumes), in the order they were made. */
  reservations(): readonly DynamicReservation[] {
    const out: DynamicReservation[] = [];
    for (const b of this.books) {
      if (b.reservationId === undefined || b.reservedFor === undefined) continue;
      out.push({ role: b.reservedFor, reservationId: b.reservationId, capacity: b.capacity, volumes: b.volumes });
    }
    return out;
  }

  /** Total resources per pool. */
  capacity(): readonly PoolAmounts[] {
    return this.books.map((b) => b.capacity);
  }

  /** Resources in use per pool (by live launches). */
  usage(): readonly PoolAmounts[] {
    return this.books.map((b) => withReservation(b, amounts(b.reservedFor, b.cpusMilli, b.memMilli, b.diskMilli, b.gpus, b.ports)));
  }

  /** Capacity minus usage per pool; scalars may go negative only if a violation was launched anyway (never here). */
  available(): readonly PoolAmounts[] {
    if (this.availableCache === undefined) {
      this.availableCache = this.books.map((b) =>
        withReservation(b, amounts(
          b.reservedFor,
          b.capacity.cpusMilli - b.cpusMilli,
          b.capacity.memMilli - b.memMilli,
          b.capacity.diskMilli - b.diskMilli,
          b.capacity.gpus - b.gpus,
          subtractRanges(b.capacity.ports, b.ports),
        )),
      );
    }
    return this.availableCache;
  }

  /** Whether the agent has a pool for this reservation (undefined = unreserved). */
  hasPool(reservedFor: string | undefined, reservationId?: string): boolean {
    return this.byKey.has(poolKey(reservedFor, reservationId));
  }

  /** Record `allocation` as used. Pools must exist (the ACCEPT check guarantees it). */
  consume(allocation: readonly PoolAmounts[]): void {
    for (const a of allocation) {
      const b = this.mustBook(a.reservedFor, a.reservationId);
      b.cpusMilli += a.cpusMilli;
      b.memMilli += a.memMilli;
      b.diskMilli += a.diskMilli;
      b.gpus += a.gpus;
      b.ports = unionRanges(b.ports, a.ports);
    }
    this.availableCache = undefined;
  }

  /** Give `allocation` back (the launch it was consumed for has ended). */
  release(allocation: readonly PoolAmounts[]): void {
    for (const a of allocation) {
      const b = this.mustBook(a.reservedFor, a.reservationId);
      b.cpusMilli -= a.cpusMilli;
      b.memMilli -= a.memMilli;
      b.diskMilli -= a.diskMilli;
      b.gpus -= a.gpus;
      b.ports = subtractRanges(b.ports, a.ports);
    }
    this.availableCache = undefined;
  }

  /** Forget all usage (the agent was removed). */
  releaseAll(): void {
    for (const b of this.books) {
      b.cpusMilli = 0;
      b.memMilli = 0;
      b.diskMilli = 0;
      b.gpus = 0;
      b.ports = [];
    }
    this.availableCache = undefined;
  }

  private mustBook(reservedFor: string | undefined, reservationId: string | undefined): PoolBook {
    const b = this.byKey.get(poolKey(reservedFor, reservationId));
    if (b === undefined) throw new Error(`agent has no pool ${poolKey(reservedFor, reservationId)}`);
    return b;
  }
}

/**
 * Map key of a pool: `*` for unreserved, the role for a static reservation, and role plus
 * reservation id for a resident instance's dynamic reservation (its labels).
 */
export function poolKey(reservedFor: string | undefined, reservationId?: string): string {
  if (reservedFor === undefined) return '*';
  return reservationId === undefined ? `role:${reservedFor}` : `role:${reservedFor}#${reservationId}`;
}

const ZERO: PoolAmounts = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };

function plus(a: PoolAmounts, b: PoolAmounts, reservedFor: string | undefined, reservationId: string | undefined): PoolAmounts {
  const sum = amounts(reservedFor, a.cpusMilli + b.cpusMilli, a.memMilli + b.memMilli, a.diskMilli + b.diskMilli, a.gpus + b.gpus, unionRanges(a.ports, b.ports));
  return reservationId === undefined ? sum : { ...sum, reservationId };
}

function minus(a: PoolAmounts, b: PoolAmounts): PoolAmounts {
  return amounts(a.reservedFor, a.cpusMilli - b.cpusMilli, a.memMilli - b.memMilli, a.diskMilli - b.diskMilli, a.gpus - b.gpus, subtractRanges(a.ports, b.ports));
}

/** A pool's amounts with its dynamic reservation id and volumes, when it is one. */
function withReservation(b: PoolBook, p: PoolAmounts): PoolAmounts {
  return b.reservationId === undefined ? p : { ...p, reservationId: b.reservationId, volumes: b.volumes };
}

function book(reservedFor: string | undefined, parts: readonly PoolAmounts[]): PoolBook {
  let cpus = 0;
  let mem = 0;
  let disk = 0;
  let gpus = 0;
  const ports: PortRange[] = [];
  for (const p of parts) {
    cpus += p.cpusMilli;
    mem += p.memMilli;
    disk += p.diskMilli;
    gpus += p.gpus;
    ports.push(...p.ports);
  }
  return {
    ...(reservedFor === undefined ? {} : { reservedFor }),
    capacity: amounts(reservedFor, cpus, mem, disk, gpus, normalizeRanges(ports)),
    volumes: [],
    cpusMilli: 0,
    memMilli: 0,
    diskMilli: 0,
    gpus: 0,
    ports: [],
  };
}

function amounts(
  reservedFor: string | undefined,
  cpusMilli: number,
  memMilli: number,
  diskMilli: number,
  gpus: number,
  ports: readonly PortRange[],
): PoolAmounts {
  return reservedFor === undefined
    ? { cpusMilli, memMilli, diskMilli, gpus, ports }
    : { reservedFor, cpusMilli, memMilli, diskMilli, gpus, ports };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
