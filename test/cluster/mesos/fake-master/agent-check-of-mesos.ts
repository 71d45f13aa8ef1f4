import type { HealthCheck } from '../../../../src/cluster/mesos/codec/mesos-model';
import type { HealthCheckProtocol } from '../../../../src/scheduler/model/health-check';
import type { ResolvedAgentCheck } from '../../../../src/scheduler/model/launch';

/** `mesos.v1.HealthCheck`'s defaults for unset fields, in seconds (mesos-v1-scheduler-api.md §5.2). */
const DEFAULTS = { delaySeconds: 15, intervalSeconds: 10, timeoutSeconds: 20, consecutiveFailures: 3, gracePeriodSeconds: 10 };

/**
 * A `TaskInfo.health_check` as the check a Mesos agent's built-in executor runs (§7.5), in the
 * shape the simulated executor runs it: the protocol from `type` (HTTP with scheme `https` is
 * MESOS_HTTPS), the timings in ms with Mesos's defaults for unset fields, `consecutive_failures`
 * with Mesos's meaning (killed when failures reach it: 0 kills at the first counted failure), the
 * port the check targets. Read from the Mesos message only, never from the run spec, so what the
 * driver left out or got wrong is what the executor runs.
 *
 * An error text (the caller records it as a problem) when the check is one no Mesos executor
 * runs: no `type` (required, §5.2), or an HTTP/TCP check without its port, or a command check
 * without a command.
 */
export function agentCheckOfMesos(hc: HealthCheck): ResolvedAgentCheck | string {
  const ms = (s: number | undefined, d: number): number => Math.round((s ?? d) * 1000);
  const timing = {
    delayMs: ms(hc.delaySeconds, DEFAULTS.delaySeconds),
    intervalMs: ms(hc.intervalSeconds, DEFAULTS.intervalSeconds),
    timeoutMs: ms(hc.timeoutSeconds, DEFAULTS.timeoutSeconds),
    gracePeriodMs: ms(hc.gracePeriodSeconds, DEFAULTS.gracePeriodSeconds),
    maxConsecutiveFailures: hc.consecutiveFailures ?? DEFAULTS.consecutiveFailures,
  };
  const spec = (protocol: HealthCheckProtocol, path: string, ipv6: boolean, command?: string): ResolvedAgentCheck['check'] => ({
    protocol, ...timing, path, ignoreHttp1xx: false, ipProtocol: ipv6 ? 'IPv6' : 'IPv4', form: 'app', ...(command === undefined ? {} : { command }),
  });
  switch (hc.type) {
    case 'HTTP':
      if (hc.http === undefined) return 'an HTTP health check without `http`';
      return { check: spec(hc.http.scheme === 'https' ? 'MESOS_HTTPS' : 'MESOS_HTTP', hc.http.path ?? '/', hc.http.protocol === 'IPv6'), port: hc.http.port };
    case 'TCP':
      if (hc.tcp === undefined) return 'a TCP health check without `tcp`';
      return { check: spec('MESOS_TCP', '/', hc.tcp.protocol === 'IPv6'), port: hc.tcp.port };
    case 'COMMAND':
      if (hc.command?.value === undefined) return 'a COMMAND health check without a command';
      return { check: spec('COMMAND', '/', false, hc.command.value) };
    default:
      return `a health check of type ${hc.type ?? '(none)'}, which no executor runs`;
  }
}
