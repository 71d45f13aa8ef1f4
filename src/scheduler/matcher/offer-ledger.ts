import type { Offer, OfferedPool } from '../model/offer';

/** A mutable pool of one offer: what is left after the instances placed so far in this cycle. */
export interface LedgerPool {
  readonly reservedFor?: string;
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  /** Remaining port ranges, sorted, inclusive; mutated as ports are taken. */
  ranges: [number, number][];
}

/**
 * The Reserve step's ledger: a working copy of an offer's pools. Placing an instance deducts from
 * it, so the next instance in the same cycle sees what is really left.
 */
export class OfferLedger {
  readonly pools: LedgerPool[];
  placed = 0;

  constructor(readonly offer: Offer) {
    // A resident instance's own reservation is for it alone (resident-offers.ts handles it).
    this.pools = [];
    for (const p of offer.pools) if (p.reservationId === undefined) this.pools.push(copyPool(p));
  }

  /** True when even all pools together lack the cpus or the memory of the smallest request. */
  cannotHold(minCpusMilli: number, minMemMilli: number): boolean {
    let cpus = 0;
    let mem = 0;
    for (const p of this.pools) {
      cpus += p.cpusMilli;
      mem += p.memMilli;
    }
    return cpus < minCpusMilli || mem < minMemMilli;
  }
}

function copyPool(p: OfferedPool): LedgerPool {
  return {
    reservedFor: p.reservedFor,
    cpusMilli: p.cpusMilli,
    memMilli: p.memMilli,
    diskMilli: p.diskMilli,
    gpus: p.gpus,
    ranges: p.ports.map((r) => [r[0], r[1]] as [number, number]).sort((a, b) => a[0] - b[0]),
  };
}

/** True when the request may draw from this pool (its role rules). */
export function poolUsable(pool: LedgerPool, role: string, acceptsUnreserved: boolean, acceptsReserved: boolean): boolean {
  return pool.reservedFor === undefined ? acceptsUnreserved : acceptsReserved && pool.reservedFor === role;
}
