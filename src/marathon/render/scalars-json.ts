import { fromMilli, type ExactScalars, type ScalarResources } from '../../scheduler/model/resources';

/**
 * An app's or pod container's resources as Marathon writes them: `{cpus, mem, disk, gpus}` (cpus
 * and MiB); `exact`: the numbers the client wrote, where the milli-units round one.
 */
export function resourcesJson(r: ScalarResources, exact: ExactScalars | undefined): { cpus: number; mem: number; disk: number; gpus: number } {
  if (exact !== undefined) return { cpus: exact.cpus, mem: exact.mem, disk: exact.disk, gpus: r.gpus };
  return { cpus: fromMilli(r.cpusMilli), mem: fromMilli(r.memMilli), disk: fromMilli(r.diskMilli), gpus: r.gpus };
}

/** A pod's `executorResources`: `{cpus, mem, disk}` (executors have no GPUs); `exact` as {@link resourcesJson}'s. */
export function executorResourcesJson(r: ScalarResources, exact: ExactScalars | undefined): { cpus: number; mem: number; disk: number } {
  if (exact !== undefined) return { cpus: exact.cpus, mem: exact.mem, disk: exact.disk };
  return { cpus: fromMilli(r.cpusMilli), mem: fromMilli(r.memMilli), disk: fromMilli(r.diskMilli) };
}
