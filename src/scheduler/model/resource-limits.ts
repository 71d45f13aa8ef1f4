/** A resource limit: a number (cpus, MiB) or `unlimited`. */
export type ResourceLimit = number | 'unlimited';

/**
 * How far a task may burst beyond the resources it asked for (`resourceLimits`, Marathon's
 * `resources.raml` `ResourceLimits`), as given. pacer schedules with the requested resources only.
 */
export interface ResourceLimits {
  readonly cpus?: ResourceLimit;
  readonly mem?: ResourceLimit;
}

/**
 * An app's `executorResources` (Marathon's `ExecutorResources`: the custom executor's own share),
 * the fields not given at Marathon's defaults (cpus 0.1, mem 32, disk 10) by the converter. Apps run on the command executor, so pacer keeps and echoes them only; pods'
 * executor resources are scheduled ({@link PodSpec.executorResources}).
 */
export interface GivenExecutorResources {
  readonly cpus?: number;
  readonly mem?: number;
  readonly disk?: number;
}
