import type { FilterPlugin } from '../filter-plugin';

/**
 * `--gpu_scheduling_behavior restricted` (Marathon's default): work that needs no GPU is kept off
 * agents that offer GPUs, so scarce GPU agents stay free for GPU work.
 */
export const gpuRestrictedFilter: FilterPlugin = {
  name: 'gpu-restricted',
  appliesTo: (req) => req.resources.gpus === 0,
  filter(req, ledger) {
    if (req.resources.gpus > 0) return undefined;
    return ledger.usable(req.role, req.acceptsUnreserved, req.acceptsReserved).gpuPools > 0 ? 'DeclinedScarceResources' : undefined;
  },
};
