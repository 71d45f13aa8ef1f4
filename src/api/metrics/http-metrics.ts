import type { RequestLifecycle } from '../request-lifecycle';
import type { MetricsRegistry } from './metrics-registry';

/** Status classes reported, each registered up front so that names are stable from the start. */
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * Measures every HTTP request of the server whose `lifecycle` this is (counted as it arrives,
 * before authentication, and once its answer is finished, on every route and the not-found
 * handler alike; no fastify hook, request-lifecycle.ts says why):
 * - `marathon.http.requests.active.gauge`: requests in flight;
 * - `marathon.http.requests.duration.timer.seconds`: duration of every request (Marathon's name);
 * - per status class N: `marathon.http.responses.Nxx.rate.meter` (Marathon's), plus
 *   `marathon.http.responses.Nxx.counter` and `marathon.http.responses.Nxx.duration.timer.seconds`;
 * - `marathon.http.responses.size.histogram.bytes`: response sizes, when the length is known.
 * A request is counted once its response is finished, so a `/metrics` read does not include itself.
 */
export function installHttpMetrics(lifecycle: RequestLifecycle, registry: MetricsRegistry): void {
  let inFlight = 0;
  registry.gauge('marathon.http.requests.active.gauge', 'HTTP requests in flight', () => inFlight);
  const duration = registry.timer('marathon.http.requests.duration.timer.seconds', 'Duration of HTTP requests, seconds');
  const size = registry.histogram('marathon.http.responses.size.histogram.bytes', 'Size of HTTP response bodies, bytes');
  // Indexed by the status's hundreds (1..5): no string or map lookup per response.
  const byClass = STATUS_CLASSES.map((cls) => ({
    meter: registry.meter(`marathon.http.responses.${cls}.rate.meter`, `Rate of HTTP ${cls} responses`),
    counter: registry.counter(`marathon.http.responses.${cls}.counter`, `HTTP ${cls} responses`),
    timer: registry.timer(`marathon.http.responses.${cls}.duration.timer.seconds`, `Duration of HTTP requests answered ${cls}, seconds`),
  }));
  lifecycle.onArrival(() => void inFlight++);
  lifecycle.onCompletion((reply, elapsedMs) => {
    inFlight--;
    const seconds = elapsedMs / 1000;
    duration.update(seconds);
    const cls = byClass[statusClassIndex(reply.statusCode)];
    cls.meter.mark();
    cls.counter.inc();
    cls.timer.update(seconds);
    const header = reply.getHeader('content-length');
    const length = typeof header === 'string' ? Number(header) : typeof header === 'number' ? header : NaN;
    if (Number.isFinite(length) && length >= 0) size.update(length);
  });
}

/** The index in {@link STATUS_CLASSES} of a status (`1xx` … `5xx`; anything outside counts as the nearest). */
function statusClassIndex(status: number): number {
  return Math.min(5, Math.max(1, Math.floor(status / 100))) - 1;
}
