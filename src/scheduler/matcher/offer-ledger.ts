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
  /** Bumped by every change of the pools (reserve.ts), so that {@link usable} knows its sums are stale. */
  version = 0;
  // The sums of the pools one kind of request may draw from (see usable), for the last few kinds
  // asked: the candidates of one offer come in a few kinds (role and role rules), visited in
  // turn, so most filter runs read a slot instead of walking the pools again.
  private readonly slots: SumSlot[] = [];
  private nextSlot = 0;

  /**
   * @param agentInMaintenance the maintenance rule's verdict on the offer (matcher/maintenance.ts),
   *   which the maintenance filter reports (plugins/maintenance-filter.ts).
   */
  constructor(readonly offer: Offer, readonly agentInMaintenance = false) {
    // A resident instance's own reservation is for it alone (resident-offers.ts handles it).
    this.pools = [];
    for (const p of offer.pools) if (p.reservationId === undefined) this.pools.push(copyPool(p));
  }

  /**
   * What the pools a request of `role` may draw from ({@link poolUsable}) hold together, now. The
   * returned object is the ledger's own, overwritten by a later call after a change (or once more
   * than four other kinds were asked): read it at once.
   */
  usable(role: string, acceptsUnreserved: boolean, acceptsReserved: boolean): Readonly<UsableSums> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (slot.kindRole === role && slot.acceptsUnreserved === acceptsUnreserved && slot.acceptsReserved === acceptsReserved) {
        if (slot.version !== this.version) this.sum(slot);
        return slot.sums;
      }
    }
    let slot: SumSlot;
    if (slots.length < SUM_SLOTS) {
      slot = { kindRole: role, acceptsUnreserved, acceptsReserved, version: -1, sums: { pools: 0, gpuPools: 0, cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: 0 } };
      slots.push(slot);
    } else {
      slot = slots[this.nextSlot];
      this.nextSlot = (this.nextSlot + 1) % SUM_SLOTS;
      slot.kindRole = role;
      slot.acceptsUnreserved = acceptsUnreserved;
      slot.acceptsReserved = acceptsReserved;
    }
    this.sum(slot);
    return slot.sums;
  }

  private sum(slot: SumSlot): void {
    const s = slot.sums;
    s.pools = 0;
    s.gpuPools = 0;
    s.cpusMilli = 0;
    s.memMilli = 0;
    s.diskMilli = 0;
    s.gpus = 0;
    s.ports = 0;
    for (const pool of this.pools) {
      if (!poolUsable(pool, slot.kindRole, slot.acceptsUnreserved, slot.acceptsReserved)) continue;
      s.pools++;
      if (pool.gpus > 0) s.gpuPools++;
      s.cpusMilli += pool.cpusMilli;
      s.memMilli += pool.memMilli;
      s.diskMilli += pool.diskMilli;
      s.gpus += pool.gpus;
      for (const r of pool.ranges) s.ports += r[1] - r[0] + 1;
    }
    slot.version = this.version;
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

/** How many kinds of request (role and role rules) one ledger keeps sums for. */
const SUM_SLOTS = 4;

/** The sums for one kind of request, valid while the ledger's version is `version`. */
interface SumSlot {
  kindRole: string;
  acceptsUnreserved: boolean;
  acceptsReserved: boolean;
  version: number;
  readonly sums: UsableSums;
}

/** The totals of the pools one kind of request may draw from ({@link OfferLedger.usable}). */
export interface UsableSums {
  /** How many pools the request may draw from. */
  pools: number;
  /** How many of them offer GPUs. */
  gpuPools: number;
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  /** Free ports in all of them. */
  ports: number;
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
