import type { ApiDeps } from '../api-deps';
import type { RequestLifecycle } from '../request-lifecycle';
import { installHttpMetrics } from './http-metrics';
import { registerMesosDriverMetrics } from './mesos-driver-metrics';
import { MetricsRegistry } from './metrics-registry';
import { registerSchedulerGauges } from './scheduler-gauges';

/**
 * The metrics of one API server: gauges over the scheduler's state, the HTTP request metrics
 * collected from every request of the server (its `lifecycle`), and on Mesos the driver's counts. One registry per
 * server, so tests stay independent.
 */
export function createApiMetrics(lifecycle: RequestLifecycle, deps: ApiDeps): MetricsRegistry {
  const registry = new MetricsRegistry(deps.clock);
  registerSchedulerGauges(registry, deps);
  installHttpMetrics(lifecycle, registry);
  const driver = deps.mesosDriverMetrics;
  if (driver !== undefined) registerMesosDriverMetrics(registry, driver, deps.clock);
  return registry;
}
