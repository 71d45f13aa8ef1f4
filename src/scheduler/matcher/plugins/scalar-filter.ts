import type { FilterPlugin } from '../filter-plugin';
import { poolUsable } from '../offer-ledger';

/** cpus, mem, disk, gpus: the usable pools together must cover one instance. */
export const scalarFilter: FilterPlugin = {
  name: 'scalar',
  filter(req, ledger) {
    let cpus = 0;
    let mem = 0;
    let disk = 0;
    let gpus = 0;
    for (const pool of ledger.pools) {
      if (!poolUsable(pool, req.role, req.acceptsUnreserved, req.acceptsReserved)) continue;
      cpus += pool.cpusMilli;
      mem += pool.memMilli;
      disk += pool.diskMilli;
      gpus += pool.gpus;
    }
    const need = req.resources;
    if (cpus < need.cpusMilli) return 'InsufficientCpus';
    if (mem < need.memMilli) return 'InsufficientMemory';
    if (disk < need.diskMilli) return 'InsufficientDisk';
    if (gpus < need.gpus) return 'InsufficientGpus';
    return undefined;
  },
};
