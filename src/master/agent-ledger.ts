import type { OfferedPool } from '../scheduler/model/offer';
import type { PortRange } from '../scheduler/model/resources';
import { normalizeRanges, subtractRanges, unionRanges } from './port-ranges';

/**
 * Amounts of one resource pool of an agent, in the offer's units: scalars in integer milli-units
 * (`gpus` as a count), ports as normalized inclusive ranges. `reservedFor` is undefined for the
 * unreserved (`*`) pool and the role for a reserved pool — the same shape as an offer's pool and an
 * instance's `allocation`, so books, offers and allocations compare directly.
 */
export type PoolAmounts = OfferedPool;

interface PoolBook {
  readonly reservedFor?: string;
  readonly capacity: PoolAmounts;
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
  private readonly books: PoolBook[];
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

  /** Total resources per pool. */
  capacity(): readonly PoolAmounts[] {
    return this.books.map((b) => b.capacity);
  }

  /** Resources in use per pool (by live launches). */
  usage(): readonly PoolAmounts[] {
    return this.books.map((b) => amounts(b.reservedFor, b.cpusMilli, b.memMilli, b.diskMilli, b.gpus, b.ports));
  }

  /** Capacity minus usage per pool; scalars may go negative only if a violation was launched anyway (never here). */
  available(): readonly PoolAmounts[] {
    if (this.availableCache === undefined) {
      this.availableCache = this.books.map((b) =>
        amounts(
          b.reservedFor,
          b.capacity.cpusMilli - b.cpusMilli,
          b.capacity.memMilli - b.memMilli,
          b.capacity.diskMilli - b.diskMilli,
          b.capacity.gpus - b.gpus,
          subtractRanges(b.capacity.ports, b.ports),
        ),
      );
    }
    return this.availableCache;
  }

  /** Whether the agent has a pool for this reservation (undefined = unreserved). */
  hasPool(reservedFor: string | undefined): boolean {
    return this.byKey.has(poolKey(reservedFor));
  }

  /** Record `allocation` as used. Pools must exist (the ACCEPT check guarantees it). */
  consume(allocation: readonly PoolAmounts[]): void {
    for (const a of allocation) {
      const b = this.mustBook(a.reservedFor);
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
      const b = this.mustBook(a.reservedFor);
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

  private mustBook(reservedFor: string | undefined): PoolBook {
    const b = this.byKey.get(poolKey(reservedFor));
    if (b === undefined) throw new Error(`agent has no pool ${poolKey(reservedFor)}`);
    return b;
  }
}

/** Map key of a pool: `*` for unreserved, the role otherwise. */
export function poolKey(reservedFor: string | undefined): string {
  return reservedFor === undefined ? '*' : `role:${reservedFor}`;
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
