import { fromMilli, type ScalarResources } from '../../scheduler/model/resources';

/** An app's or pod container's resources as Marathon writes them: `{cpus, mem, disk, gpus}` (cpus and MiB). */
export function resourcesJson(r: ScalarResources): { cpus: number; mem: number; disk: number; gpus: number } {
  return { cpus: fromMilli(r.cpusMilli), mem: fromMilli(r.memMilli), disk: fromMilli(r.diskMilli), gpus: r.gpus };
}

/** A pod's `executorResources`: `{cpus, mem, disk}` (executors have no GPUs). */
export function executorResourcesJson(r: ScalarResources): { cpus: number; mem: number; disk: number } {
  return { cpus: fromMilli(r.cpusMilli), mem: fromMilli(r.memMilli), disk: fromMilli(r.diskMilli) };
}
