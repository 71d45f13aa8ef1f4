/**
 * Scalar resources in integer milli-units (Mesos rounds scalars to three decimals anyway), so that
 * sums and comparisons are exact and deterministic. `memMilli` is thousandths of a MiB.
 */
export interface ScalarResources {
  cpusMilli: number;
  memMilli: number;
  diskMilli: number;
  gpus: number;
}

/** An inclusive port range `[begin, end]`. */
export type PortRange = readonly [number, number];

/** `1.5` cpus → 1500: rounds half away from zero at the thousandth as Mesos does. */
export function toMilli(value: number): number {
  return Math.round(value * 1000);
}

export function fromMilli(milli: number): number {
  return milli / 1000;
}

export function zeroResources(): ScalarResources {
  return { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
}

export function addResources(a: ScalarResources, b: ScalarResources): ScalarResources {
  return {
    cpusMilli: a.cpusMilli + b.cpusMilli,
    memMilli: a.memMilli + b.memMilli,
    diskMilli: a.diskMilli + b.diskMilli,
    gpus: a.gpus + b.gpus,
  };
}
