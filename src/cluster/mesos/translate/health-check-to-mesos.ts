import { isSchedulerRun, type HealthCheckSpec } from '../../../scheduler/model/health-check';
import type { HealthCheck, NetworkProtocol } from '../codec/mesos-model';

/**
 * An agent-run health check (`MESOS_HTTP`, `MESOS_HTTPS`, `MESOS_TCP`, `COMMAND`, pod checks) as
 * the Mesos `HealthCheck` the built-in executors run (mesos-v1-scheduler-api.md §5.2, §7.5).
 * `port` is the port the task listens on inside its own network namespace (Mesos probes
 * 127.0.0.1 there, §5.2): the host port under host networking, the container port otherwise.
 *
 * - `type` is always set (§5.2: required for LAUNCH_GROUP).
 * - HTTPS checks are HTTP with `scheme: "https"`; `ipProtocol: "IPv6"` becomes `protocol: IPv6`.
 * - Timing in seconds: `delaySeconds`, `intervalSeconds`, `timeoutSeconds`, `gracePeriodSeconds`.
 * - `maxConsecutiveFailures` → `consecutive_failures` unchanged: for agent-level checks the spec
 *   already gives it Mesos's meaning (service-spec.md 2.5: killed when failures reach or exceed
 *   the value, so 0 kills at the first failure; Mesos kills at `failures >= consecutive_failures`,
 *   §7.5). Only scheduler-run checks read 0 as "never kill", and those never reach Mesos.
 *
 * Undefined for scheduler-run protocols (HTTP/HTTPS/TCP are probed by pacer itself, spec 2.5
 * rule 3), and for a port check without a port or a command check without a command (nothing
 * Mesos could run; the converter does not produce those).
 */
export function healthCheckToMesos(check: HealthCheckSpec, port: number | undefined): HealthCheck | undefined {
  if (isSchedulerRun(check.protocol)) return undefined;
  const timing: HealthCheck = {
    delaySeconds: check.delayMs / 1000,
    intervalSeconds: check.intervalMs / 1000,
    timeoutSeconds: check.timeoutMs / 1000,
    consecutiveFailures: check.maxConsecutiveFailures,
    gracePeriodSeconds: check.gracePeriodMs / 1000,
  };
  const ip = ipProtocolOf(check);
  switch (check.protocol) {
    case 'COMMAND':
      return check.command === undefined ? undefined : { ...timing, type: 'COMMAND', command: { shell: true, value: check.command } };
    case 'MESOS_TCP':
      return port === undefined ? undefined : { ...timing, type: 'TCP', tcp: { port, ...ip } };
    case 'MESOS_HTTP':
    case 'MESOS_HTTPS': {
      if (port === undefined) return undefined;
      const scheme = check.protocol === 'MESOS_HTTPS' ? 'https' : 'http';
      return { ...timing, type: 'HTTP', http: { port, path: check.path, scheme, ...ip } };
    }
  }
}

/** `{protocol: 'IPv6'}` when the definition asks for IPv6 (app `ipProtocol`); IPv4 is Mesos's default. */
function ipProtocolOf(check: HealthCheckSpec): { protocol?: NetworkProtocol } {
  return check.ipProtocol === 'IPv6' ? { protocol: 'IPv6' } : {};
}
