import type { FilterPlugin } from '../filter-plugin';
import { poolUsable, type LedgerPool } from '../offer-ledger';

/**
 * Host ports: every fixed port (`requirePorts`, pod `hostPort: N`) must be free in a usable pool,
 * and enough other free ports must remain for the dynamic ones (`hostPort: 0`).
 */
export const portsFilter: FilterPlugin = {
  name: 'ports',
  appliesTo: (req) => req.hostPorts.length > 0,
  filter(req, ledger) {
    if (req.hostPorts.length === 0) return undefined;
    if (ledger.usable(req.role, req.acceptsUnreserved, req.acceptsReserved).ports < req.hostPorts.length) return 'InsufficientPorts';
    if (req.fixedPortCount === 0) return undefined;
    for (const port of req.hostPorts) {
      if (port !== 0 && findPool(ledger.pools, port, req.role, req.acceptsUnreserved, req.acceptsReserved) === undefined) {
        return 'InsufficientPorts';
      }
    }
    return undefined;
  },
};

/** The first usable pool whose free ranges contain `port`. */
export function findPool(
  pools: readonly LedgerPool[], port: number, role: string, acceptsUnreserved: boolean, acceptsReserved: boolean,
): LedgerPool | undefined {
  for (const pool of pools) {
    if (!poolUsable(pool, role, acceptsUnreserved, acceptsReserved)) continue;
    for (const r of pool.ranges) if (port >= r[0] && port <= r[1]) return pool;
  }
  return undefined;
}
