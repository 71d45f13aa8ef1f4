import type { HealthCheckSpec } from '../model/health-check';
import type { RunSpec } from '../model/run-spec';

/** One health check of a run spec, and for pods the container that runs it. */
export interface RunSpecCheck {
  readonly check: HealthCheckSpec;
  readonly containerName?: string;
}

/**
 * Every health check of a run spec, in a fixed order: an app's `healthChecks` (index = the check's
 * index, as probe timers name it), a pod's containers' checks in container order.
 */
export function checksOf(spec: RunSpec): RunSpecCheck[] {
  if (spec.kind === 'app') return spec.healthChecks.map((check) => ({ check }));
  return spec.containers.flatMap((c) => (c.healthCheck === undefined ? [] : [{ check: c.healthCheck, containerName: c.name }]));
}
