import { assert } from '../kernel/assert';
import type { OfferedPool } from '../model/offer';
import type { PortRange } from '../model/resources';
import type { LaunchRequest } from './launch-request';
import { poolUsable, type LedgerPool, type OfferLedger } from './offer-ledger';
import { findPool } from './plugins/ports-filter';

/** What one instance took from an offer. */
export interface Reservation {
  /** Per pool taken from (reserved pools first), in OfferedPool shape. */
  readonly allocation: OfferedPool[];
  /** Concrete host ports, in the request's `hostPorts` order. */
  readonly hostPorts: number[];
}

/**
 * The Reserve step: deducts one instance of `req` from the ledger. Scalars come from the role's
 * reserved pools first, then unreserved; fixed ports are taken where they are; dynamic ports are the
 * lowest free ones (deterministic, no draw). Only call after every filter accepted the offer.
 */
export function reserve(req: LaunchRequest, ledger: OfferLedger): Reservation {
  const pools = orderedPools(ledger.pools, req);
  const taken = new Map<LedgerPool, MutableAlloc>();
  takeScalars(pools, req, taken);
  const hostPorts = takePorts(pools, req, taken);
  ledger.placed++;
  const allocation: OfferedPool[] = [];
  for (const [pool, a] of taken) {
    allocation.push({ reservedFor: pool.reservedFor, cpusMilli: a.cpusMilli, memMilli: a.memMilli, diskMilli: a.diskMilli, gpus: a.gpus, ports: a.ports });
  }
  return { allocation, hostPorts };
}

interface MutableAlloc {
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
  ports: PortRange[];
}

function orderedPools(pools: readonly LedgerPool[], req: LaunchRequest): LedgerPool[] {
  const usable = pools.filter((p) => poolUsable(p, req.role, req.acceptsUnreserved, req.acceptsReserved));
  return [...usable.filter((p) => p.reservedFor !== undefined), ...usable.filter((p) => p.reservedFor === undefined)];
}

function allocOf(taken: Map<LedgerPool, MutableAlloc>, pool: LedgerPool): MutableAlloc {
  let a = taken.get(pool);
  if (a === undefined) {
    a = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };
    taken.set(pool, a);
  }
  return a;
}

function takeScalars(pools: LedgerPool[], req: LaunchRequest, taken: Map<LedgerPool, MutableAlloc>): void {
  const need = { ...req.resources };
  for (const pool of pools) {
    const cpus = Math.min(need.cpusMilli, pool.cpusMilli);
    const mem = Math.min(need.memMilli, pool.memMilli);
    const disk = Math.min(need.diskMilli, pool.diskMilli);
    const gpus = Math.min(need.gpus, pool.gpus);
    if (cpus + mem + disk + gpus === 0) continue;
    const a = allocOf(taken, pool);
    pool.cpusMilli -= cpus; a.cpusMilli += cpus; need.cpusMilli -= cpus;
    pool.memMilli -= mem; a.memMilli += mem; need.memMilli -= mem;
    pool.diskMilli -= disk; a.diskMilli += disk; need.diskMilli -= disk;
    pool.gpus -= gpus; a.gpus += gpus; need.gpus -= gpus;
  }
}

function takePorts(pools: LedgerPool[], req: LaunchRequest, taken: Map<LedgerPool, MutableAlloc>): number[] {
  const out = new Array<number>(req.hostPorts.length);
  req.hostPorts.forEach((port, i) => {
    if (port === 0) return;
    const pool = findPool(pools, port, req.role, req.acceptsUnreserved, req.acceptsReserved);
    assert(pool !== undefined, `reserve: fixed port ${port} vanished after filtering`);
    removePort(pool, port);
    allocOf(taken, pool).ports.push([port, port]);
    out[i] = port;
  });
  req.hostPorts.forEach((port, i) => {
    if (port !== 0) return;
    const pool = pools.find((p) => p.ranges.length > 0);
    assert(pool !== undefined, 'reserve: dynamic port vanished after filtering');
    const p = pool.ranges[0][0];
    removePort(pool, p);
    allocOf(taken, pool).ports.push([p, p]);
    out[i] = p;
  });
  return out;
}

function removePort(pool: LedgerPool, port: number): void {
  const ranges = pool.ranges;
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i];
    if (port < r[0] || port > r[1]) continue;
    if (r[0] === r[1]) ranges.splice(i, 1);
    else if (port === r[0]) r[0]++;
    else if (port === r[1]) r[1]--;
    else ranges.splice(i, 1, [r[0], port - 1], [port + 1, r[1]]);
    return;
  }
}
