import type { ExactScalars, ScalarResources } from '../../scheduler/model/resources';
import { fromMilli, toMilli } from '../../scheduler/model/resources';
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
 * `defaults`. As written: {@link milliOf} gives the core's milli-units, {@link exactScalarsOf}
 * what the milli-units would lose.
 */
export function wireResourcesFrom(holder: WireObject | undefined, defaults: WireResources): WireResources {
  const rule = { min: 0 };
  return {
    cpus: holder?.number('cpus', defaults.cpus, rule) ?? defaults.cpus,
    mem: holder?.number('mem', defaults.mem, rule) ?? defaults.mem,
    disk: holder?.number('disk', defaults.disk, rule) ?? defaults.disk,
    gpus: holder?.number('gpus', defaults.gpus, { min: 0, integer: true }) ?? defaults.gpus,
  };
}

/**
 * The client's cpus, mem and disk when one of them is not a whole number of thousandths (the
 * milli-units would round it), else undefined: what a definition keeps to echo them exactly
 * ({@link ExactScalars}).
 */
export function exactScalarsOf(wire: WireResources): ExactScalars | undefined {
  if (isMilliExact(wire.cpus) && isMilliExact(wire.mem) && isMilliExact(wire.disk)) return undefined;
  return { cpus: wire.cpus, mem: wire.mem, disk: wire.disk };
}

function isMilliExact(value: number): boolean {
  return fromMilli(toMilli(value)) === value;
}

/** Wire resources in the core's integer milli-units. */
export function milliOf(wire: WireResources): ScalarResources {
  return { cpusMilli: toMilli(wire.cpus), memMilli: toMilli(wire.mem), diskMilli: toMilli(wire.disk), gpus: wire.gpus };
}
