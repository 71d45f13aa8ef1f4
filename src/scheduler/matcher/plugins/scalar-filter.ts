import type { NoMatchReason } from '../../model/no-match-reason';
import type { ScalarResources } from '../../model/resources';
import type { FilterPlugin } from '../filter-plugin';

/**
 * The first of cpus, mem, disk and gpus that `has` holds less of than `need`, as the reason an
 * offer cannot host it, or undefined when it holds all four. The one comparison of the scalars in
 * the core: the matcher's filter below (the usable pools together) and the relaunch on a
 * reservation (one reserved pool, launcher/resident-offers.ts) both ask it.
 */
export function scalarShortfall(has: Readonly<ScalarResources>, need: Readonly<ScalarResources>): NoMatchReason | undefined {
  if (has.cpusMilli < need.cpusMilli) return 'InsufficientCpus';
  if (has.memMilli < need.memMilli) return 'InsufficientMemory';
  if (has.diskMilli < need.diskMilli) return 'InsufficientDisk';
  if (has.gpus < need.gpus) return 'InsufficientGpus';
  return undefined;
}

/** cpus, mem, disk, gpus: the usable pools together must cover one instance. */
export const scalarFilter: FilterPlugin = {
  name: 'scalar',
  filter(req, ledger) {
    return scalarShortfall(ledger.usable(req.role, req.acceptsUnreserved, req.acceptsReserved), req.resources);
  },
};
