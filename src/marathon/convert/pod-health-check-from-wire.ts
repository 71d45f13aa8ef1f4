import type { HealthCheckSpec } from '../../scheduler/model/health-check';
import type { PodEndpoint } from '../../scheduler/model/run-spec';
import { healthCheckTimingFromWire, POD_CHECK_TIMING, timingMs } from './health-check-timing';
import type { WireObject } from './wire-object';

/** A pod container's health check: normalized (absent when the container has none) and as echoed. */
export interface ConvertedPodHealthCheck {
  readonly spec?: HealthCheckSpec;
  /** `null` when the container has no health check (spec 2.1). */
  readonly wire: Readonly<Record<string, unknown>> | null;
}

type Kind = 'http' | 'tcp' | 'exec';
const KINDS: readonly Kind[] = ['http', 'tcp', 'exec'];

interface KindResult {
  readonly spec: Pick<HealthCheckSpec, 'protocol'> & Partial<Pick<HealthCheckSpec, 'endpoint' | 'path' | 'command'>>;
  readonly wire: Readonly<Record<string, unknown>>;
}

/**
 * Reads `container.healthCheck` (spec 2.6): exactly one of `http` (→ `MESOS_HTTP`, or
 * `MESOS_HTTPS` when `scheme` is `HTTPS`; `path` defaults to `/`, `scheme` to `HTTP`), `tcp`
 * (→ `MESOS_TCP`) or `exec` (→ `COMMAND`, `command.shell`). `http`/`tcp` name an endpoint of the
 * same container. Defaults: grace 300 s, interval 60 s, timeout 20 s, 3 failures, delay 2 s.
 */
export function podHealthCheckFromWire(container: WireObject, endpoints: readonly PodEndpoint[]): ConvertedPodHealthCheck {
  const check = container.child('healthCheck');
  if (check === undefined) return { wire: null };
  const kinds = KINDS.filter((k) => check.has(k));
  const timing = healthCheckTimingFromWire(check, POD_CHECK_TIMING);
  if (kinds.length !== 1) {
    check.fail(undefined, 'a health check must specify exactly one of http, tcp or exec');
    return { wire: null };
  }
  const kind = kinds[0];
  const result = kindFromWire(check, kind, endpoints);
  if (result === undefined) return { wire: null };
  const wire = check.withExtras({ [kind]: result.wire, ...timing });
  const spec: HealthCheckSpec = {
    ...result.spec, ...timingMs(timing), path: result.spec.path ?? '/', ignoreHttp1xx: false, wire,
  };
  return { spec, wire };
}

function kindFromWire(check: WireObject, kind: Kind, endpoints: readonly PodEndpoint[]): KindResult | undefined {
  const body = check.child(kind);
  if (body === undefined) return undefined;
  if (kind === 'exec') return execFromWire(body);
  const endpoint = endpointOf(body, endpoints);
  if (kind === 'tcp') return endpoint === undefined ? undefined : { spec: { protocol: 'MESOS_TCP', endpoint }, wire: body.withExtras({ endpoint }) };
  const path = body.string('path', '/');
  const scheme = body.string('scheme', 'HTTP').toUpperCase();
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') body.fail('scheme', 'scheme must be HTTP or HTTPS');
  if (endpoint === undefined) return undefined;
  const protocol = scheme === 'HTTPS' ? 'MESOS_HTTPS' : 'MESOS_HTTP';
  return { spec: { protocol, endpoint, path }, wire: body.withExtras({ endpoint, path, scheme }) };
}

function endpointOf(body: WireObject, endpoints: readonly PodEndpoint[]): string | undefined {
  if (!body.has('endpoint')) {
    body.fail('endpoint', 'error.path.missing');
    return undefined;
  }
  const name = body.optionalString('endpoint');
  if (name === undefined) return undefined;
  if (endpoints.some((e) => e.name === name)) return name;
  body.fail('endpoint', `health check endpoint "${name}" is not an endpoint of this container`);
  return undefined;
}

function execFromWire(body: WireObject): KindResult | undefined {
  const command = body.child('command');
  const shell = command?.optionalString('shell');
  if (command === undefined || shell === undefined) {
    if (command === undefined && !body.has('command')) body.fail('command', 'error.path.missing');
    else if (command !== undefined && !command.has('shell')) command.fail('shell', 'error.path.missing');
    return undefined;
  }
  return { spec: { protocol: 'COMMAND', command: shell }, wire: body.withExtras({ command: command.withExtras({ shell }) }) };
}
