import type { HealthCheckSpec } from '../../scheduler/model/health-check';
import type { PodEndpoint } from '../../scheduler/model/pod';
import { healthCheckTimingFromWire, POD_CHECK_TIMING, timingMs } from './health-check-timing';
import type { WireObject } from './wire-object';

type Kind = 'http' | 'tcp' | 'exec';
const KINDS: readonly Kind[] = ['http', 'tcp', 'exec'];

type KindSpec = Pick<HealthCheckSpec, 'protocol'> & Partial<Pick<HealthCheckSpec, 'endpoint' | 'path' | 'command'>>;

/**
 * Reads `container.healthCheck` (spec 2.6): exactly one of `http` (→ `MESOS_HTTP`, or
 * `MESOS_HTTPS` when `scheme` is `HTTPS`; `path` defaults to `/`, `scheme` to `HTTP`), `tcp`
 * (→ `MESOS_TCP`) or `exec` (→ `COMMAND`, `command.shell`). `http`/`tcp` name an endpoint of the
 * same container. Defaults: grace 300 s, interval 60 s, timeout 20 s, 3 failures, delay 2 s.
 * Undefined when the container has none (or it is not valid). With `requestRules` (a definition a
 * client sends) `timeoutSeconds` is below `intervalSeconds`, as Marathon's `PodsValidation`
 * checks it (accord's `got 20, expected less than 10`): a probe longer than its interval overlaps
 * the next.
 */
export function podHealthCheckFromWire(container: WireObject, endpoints: readonly PodEndpoint[], requestRules = false): HealthCheckSpec | undefined {
  const check = container.child('healthCheck');
  if (check === undefined) return undefined;
  const kinds = KINDS.filter((k) => check.has(k));
  const timing = healthCheckTimingFromWire(check, POD_CHECK_TIMING);
  if (requestRules && timing.timeoutSeconds >= timing.intervalSeconds) {
    check.fail('timeoutSeconds', `got ${timing.timeoutSeconds}, expected less than ${timing.intervalSeconds}`);
  }
  if (kinds.length !== 1) {
    check.fail(undefined, 'a health check must specify exactly one of http, tcp or exec');
    return undefined;
  }
  const result = kindFromWire(check, kinds[0], endpoints);
  if (result === undefined) return undefined;
  return { ...result, ...timingMs(timing), path: result.path ?? '/', ignoreHttp1xx: false, ipProtocol: 'IPv4', form: 'pod' };
}

function kindFromWire(check: WireObject, kind: Kind, endpoints: readonly PodEndpoint[]): KindSpec | undefined {
  const body = check.child(kind);
  if (body === undefined) return undefined;
  if (kind === 'exec') return execFromWire(body);
  const endpoint = endpointOf(body, endpoints);
  if (kind === 'tcp') return endpoint === undefined ? undefined : { protocol: 'MESOS_TCP', endpoint };
  const path = body.string('path', '/');
  const scheme = body.string('scheme', 'HTTP').toUpperCase();
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') body.fail('scheme', 'scheme must be HTTP or HTTPS');
  if (endpoint === undefined) return undefined;
  return { protocol: scheme === 'HTTPS' ? 'MESOS_HTTPS' : 'MESOS_HTTP', endpoint, path };
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

function execFromWire(body: WireObject): KindSpec | undefined {
  const command = body.child('command');
  const shell = command?.optionalString('shell');
  if (command === undefined || shell === undefined) {
    if (command === undefined && !body.has('command')) body.fail('command', 'error.path.missing');
    else if (command !== undefined && !command.has('shell')) command.fail('shell', 'error.path.missing');
    return undefined;
  }
  return { protocol: 'COMMAND', command: shell };
}
