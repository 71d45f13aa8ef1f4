import type { FilterPlugin } from '../filter-plugin';

/** cpus, mem, disk, gpus: the usable pools together must cover one instance. */
export const scalarFilter: FilterPlugin = {
  name: 'scalar',
  filter(req, ledger) {
    const has = ledger.usable(req.role, req.acceptsUnreserved, req.acceptsReserved);
    const need = req.resources;
    if (has.cpusMilli < need.cpusMilli) return 'InsufficientCpus';
    if (has.memMilli < need.memMilli) return 'InsufficientMemory';
    if (has.diskMilli < need.diskMilli) return 'InsufficientDisk';
    if (has.gpus < need.gpus) return 'InsufficientGpus';
    return undefined;
  },
};
