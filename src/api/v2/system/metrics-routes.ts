import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { notFound } from '../../errors';
import { createApiMetrics } from '../../metrics/api-metrics';
import type { RequestLifecycle } from '../../request-lifecycle';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../metrics/prometheus-text';

/**
 * `GET /metrics` (fact 98: the Dropwizard-shaped JSON snapshot) and `GET /metrics/prometheus`
 * (fact 99: the same metrics in the Prometheus text format; 404 "Prometheus reporter is disabled"
 * when `config.prometheus` is off). The HTTP request metrics are fed by every request (the server's `lifecycle`).
 */
export function metricsRoutes(app: FastifyInstance, deps: ApiDeps, lifecycle: RequestLifecycle): void {
  const registry = createApiMetrics(lifecycle, deps);
  app.get('/metrics', (_req, reply) => reply.type('application/json').send(registry.snapshot()));
  app.get('/metrics/prometheus', (_req, reply) => {
    if (!deps.config.prometheus) throw notFound('Prometheus reporter is disabled');
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(prometheusText(registry));
  });
}
