import type { ScalarResources } from '../../scheduler/model/resources';
import { toMilli } from '../../scheduler/model/resources';
import type { WireObject } from './wire-object';

/** Scalar resources as written on the wire (cpus, MiB, MiB, whole GPUs). */
export type WireResources = {
  readonly cpus: number;
  readonly mem: number;
  readonly disk: number;
  readonly gpus: number;
};

/** Defaults of apps and of pod containers (facts table L). */
export const DEFAULT_RESOURCES: WireResources = { cpus: 1, mem: 128, disk: 0, gpus: 0 };

/**
 * Reads `cpus`, `mem`, `disk` and `gpus` of `holder` (an app, a pod container's `resources`, or
 * `executorResources`): non-negative numbers, `gpus` a whole number; missing values take
 * `defaults`. In the core's milli-units.
 */
export function resourcesFromWire(holder: WireObject | undefined, defaults: WireResources): ScalarResources {
  const rule = { min: 0 };
  return milliOf({
    cpus: holder?.number('cpus', defaults.cpus, rule) ?? defaults.cpus,
    mem: holder?.number('mem', defaults.mem, rule) ?? defaults.mem,
    disk: holder?.number('disk', defaults.disk, rule) ?? defaults.disk,
    gpus: holder?.number('gpus', defaults.gpus, { min: 0, integer: true }) ?? defaults.gpus,
  });
}

/** Wire resources in the core's integer milli-units. */
export function milliOf(wire: WireResources): ScalarResources {
  return { cpusMilli: toMilli(wire.cpus), memMilli: toMilli(wire.mem), diskMilli: toMilli(wire.disk), gpus: wire.gpus };
}
