import type { HealthCheckSpec } from '../../scheduler/model/health-check';
import { seconds } from './json-helpers';

const HTTP_KINDS = new Set(['HTTP', 'HTTPS', 'MESOS_HTTP', 'MESOS_HTTPS']);

/**
 * A health check as Marathon writes it: an app's `healthChecks[]` entry (`AppHealthCheck`:
 * protocol, timing in seconds, `ipProtocol`, the port (`portIndex` and/or `port`) or `command`,
 * `path` for HTTP kinds, `ignoreHttp1xx` for HTTP and HTTPS) or a pod container's `healthCheck`
 * (`HealthCheck`: exactly one of `http`, `tcp`, `exec`, then the timing). Also the `healthCheck` of
 * the health check events.
 */
export function healthCheckJson(check: HealthCheckSpec): Record<string, unknown> {
  return check.form === 'pod' ? podCheckJson(check) : appCheckJson(check);
}

function timingJson(check: HealthCheckSpec): Record<string, number> {
  return {
    gracePeriodSeconds: seconds(check.gracePeriodMs),
    intervalSeconds: seconds(check.intervalMs),
    timeoutSeconds: seconds(check.timeoutMs),
    maxConsecutiveFailures: check.maxConsecutiveFailures,
    delaySeconds: seconds(check.delayMs),
  };
}

function appCheckJson(check: HealthCheckSpec): Record<string, unknown> {
  const json: Record<string, unknown> = { protocol: check.protocol, ...timingJson(check), ipProtocol: check.ipProtocol };
  if (check.protocol === 'COMMAND') json.command = { value: check.command ?? '' };
  else {
    if (check.portIndex !== undefined) json.portIndex = check.portIndex;
    if (check.port !== undefined) json.port = check.port;
  }
  if (HTTP_KINDS.has(check.protocol)) json.path = check.path;
  if (check.protocol === 'HTTP' || check.protocol === 'HTTPS') json.ignoreHttp1xx = check.ignoreHttp1xx;
  return json;
}

function podCheckJson(check: HealthCheckSpec): Record<string, unknown> {
  return { ...podCheckKind(check), ...timingJson(check) };
}

function podCheckKind(check: HealthCheckSpec): Record<string, unknown> {
  switch (check.protocol) {
    case 'COMMAND':
      return { exec: { command: { shell: check.command ?? '' } } };
    case 'MESOS_TCP':
      return { tcp: { endpoint: check.endpoint } };
    default:
      return { http: { endpoint: check.endpoint, path: check.path, scheme: check.protocol === 'MESOS_HTTPS' ? 'HTTPS' : 'HTTP' } };
  }
}
