import { assert } from '../kernel/assert';
import type { OfferedPool } from '../model/offer';
import type { PortRange } from '../model/resources';
import type { LaunchRequest } from '../state/launch-request';
import { poolUsable, type LedgerPool, type OfferLedger } from './offer-ledger';
import { findPool } from './plugins/ports-filter';

/** What one instance took from an offer. */
export interface Reservation {
  /** Per pool taken from (reserved pools first), in OfferedPool shape. */
  readonly allocation: OfferedPool[];
  /** Concrete host ports, in the request's `hostPorts` order. */
  readonly hostPorts: readonly number[];
}

/**
 * The Reserve step: deducts one instance of `req` from the ledger. Scalars come from the role's
 * reserved pools first, then unreserved; fixed ports are taken where they are; dynamic ports are the
 * lowest free ones (deterministic, no draw). Only call after every filter accepted the offer.
 * Hot path: the allocation and its entries, and for host ports the pools' order and the ports
 * taken; no maps.
 */
export function reserve(req: LaunchRequest, ledger: OfferLedger): Reservation {
  const all = ledger.pools;
  let ports: (PortRange[] | undefined)[] | undefined;
  let hostPorts = NO_PORTS;
  if (req.hostPorts.length > 0) {
    // Indexed like `all` (not like the usable pools) so that the scalar pass below needs no list.
    ports = new Array<PortRange[] | undefined>(all.length);
    hostPorts = takePorts(all, usablePools(all, req), req, ports);
  }
  let cpus = req.resources.cpusMilli;
  let mem = req.resources.memMilli;
  let disk = req.resources.diskMilli;
  let gpus = req.resources.gpus;
  // Nearly always one pool: its entry alone is made into a list of exactly one, not pushed into an
  // empty list (whose first push gives it room for 17, ~70 bytes of garbage per placement).
  let first: OfferedPool | undefined;
  let more: OfferedPool[] | undefined;
  // The role's reserved pools first, then the unreserved ones (usablePools' order, usableInPass).
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < all.length; i++) {
      const pool = all[i];
      if (!usableInPass(pool, req, pass)) continue;
      const taken = ports === undefined ? undefined : ports[i];
      const c = Math.min(cpus, pool.cpusMilli);
      const m = Math.min(mem, pool.memMilli);
      const d = Math.min(disk, pool.diskMilli);
      const g = Math.min(gpus, pool.gpus);
      if (c + m + d + g === 0 && taken === undefined) continue;
      pool.cpusMilli -= c;
      pool.memMilli -= m;
      pool.diskMilli -= d;
      pool.gpus -= g;
      cpus -= c;
      mem -= m;
      disk -= d;
      gpus -= g;
      const entry: OfferedPool = { reservedFor: pool.reservedFor, cpusMilli: c, memMilli: m, diskMilli: d, gpus: g, ports: taken ?? NO_RANGES };
      if (first === undefined) first = entry;
      else if (more === undefined) more = [first, entry];
      else more.push(entry);
    }
  }
  ledger.placed++;
  ledger.version++;
  return { allocation: more ?? (first === undefined ? [] : [first]), hostPorts };
}

const NO_PORTS: readonly number[] = [];
const NO_RANGES: readonly PortRange[] = [];

/** The pools the request may draw from, the role's reserved ones first. */
function usablePools(all: readonly LedgerPool[], req: LaunchRequest): LedgerPool[] {
  const out: LedgerPool[] = [];
  for (let pass = 0; pass < 2; pass++) for (const p of all) if (usableInPass(p, req, pass)) out.push(p);
  return out;
}

/** Whether `req` may draw from `pool` in pass 0 (the role's reserved pools) or pass 1 (the unreserved ones): the order of {@link usablePools}. */
function usableInPass(pool: LedgerPool, req: LaunchRequest, pass: number): boolean {
  return (pass === 0) === (pool.reservedFor !== undefined) && poolUsable(pool, req.role, req.acceptsUnreserved, req.acceptsReserved);
}

/** Takes the host ports from `pools` (the usable ones, in order); `taken` (indexed like `all`) gets the ports taken per pool. */
function takePorts(all: readonly LedgerPool[], pools: LedgerPool[], req: LaunchRequest, taken: (PortRange[] | undefined)[]): number[] {
  const out = new Array<number>(req.hostPorts.length);
  for (let k = 0; k < req.hostPorts.length; k++) {
    const port = req.hostPorts[k];
    if (port === 0) continue;
    // The pool the ports filter found it in (one rule for where a fixed port is).
    const pool = findPool(pools, port, req.role, req.acceptsUnreserved, req.acceptsReserved);
    if (pool === undefined) assert(false, `reserve: fixed port ${port} vanished after filtering`);
    take(pool, taken, all.indexOf(pool), port);
    out[k] = port;
  }
  for (let k = 0; k < req.hostPorts.length; k++) {
    if (req.hostPorts[k] !== 0) continue;
    const i = firstWithPorts(pools);
    assert(i >= 0, 'reserve: dynamic port vanished after filtering');
    const port = pools[i].ranges[0][0];
    take(pools[i], taken, all.indexOf(pools[i]), port);
    out[k] = port;
  }
  return out;
}

/** The index of the first pool with any port left, or -1 (a loop, not a closure: this runs per port placed). */
function firstWithPorts(pools: readonly LedgerPool[]): number {
  for (let i = 0; i < pools.length; i++) if (pools[i].ranges.length > 0) return i;
  return -1;
}

function take(pool: LedgerPool, taken: (PortRange[] | undefined)[], i: number, port: number): void {
  removePort(pool, port);
  (taken[i] ??= []).push([port, port]);
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
