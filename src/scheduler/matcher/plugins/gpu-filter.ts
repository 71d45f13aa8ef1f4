import type { FilterPlugin } from '../filter-plugin';
import { poolUsable } from '../offer-ledger';

/**
 * `--gpu_scheduling_behavior restricted` (Marathon's default): work that needs no GPU is kept off
 * agents that offer GPUs, so scarce GPU agents stay free for GPU work.
 */
export const gpuRestrictedFilter: FilterPlugin = {
  name: 'gpu-restricted',
  filter(req, ledger) {
    if (req.resources.gpus > 0) return undefined;
    for (const pool of ledger.pools) {
      if (pool.gpus > 0 && poolUsable(pool, req.role, req.acceptsUnreserved, req.acceptsReserved)) {
        return 'DeclinedScarceResources';
      }
    }
    return undefined;
  },
};
