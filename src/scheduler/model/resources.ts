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

/**
 * Scalar resources exactly as a client wrote them (cpus; mem and disk in MiB), kept beside the
 * milli-units of a definition only when one of them is not a whole number of thousandths
 * (`"cpus": 0.0625`): the core schedules with the milli-units (0.063; Mesos rounds scalars to
 * three decimals as well), while the definition's JSON, its stored record and the task's
 * `MARATHON_*_RESOURCE_*` variables keep the client's numbers, as Marathon's doubles do — a client
 * that compares what it PUT with what it GETs sees no change. Absent for nearly every definition.
 */
export interface ExactScalars {
  readonly cpus: number;
  readonly mem: number;
  readonly disk: number;
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
