/**
 * Health check protocols of apps, with Marathon's wire names (spec 2.5 writes the agent-run ones
 * `AGENT_*`, a neutral stand-in for Marathon's `MESOS_*`: `raml/HealthCheckConversion.scala`); pod
 * checks map http/tcp/exec onto the agent-run ones. The only names the model, the API, events,
 * scenario files and stored records use; `AGENT_*` is accepted as an alias on input only
 * ({@link healthCheckProtocolOf}).
 */
export type HealthCheckProtocol = 'HTTP' | 'HTTPS' | 'TCP' | 'COMMAND' | 'MESOS_HTTP' | 'MESOS_HTTPS' | 'MESOS_TCP';

/** Every protocol, in the order messages list them. */
export const HEALTH_CHECK_PROTOCOLS: readonly HealthCheckProtocol[] = [
  'HTTP', 'HTTPS', 'TCP', 'COMMAND', 'MESOS_HTTP', 'MESOS_HTTPS', 'MESOS_TCP',
];

/** The spec's neutral names of the agent-run protocols, read as aliases of Marathon's. */
export const AGENT_PROTOCOL_ALIASES: Readonly<Record<string, HealthCheckProtocol>> = {
  AGENT_HTTP: 'MESOS_HTTP', AGENT_HTTPS: 'MESOS_HTTPS', AGENT_TCP: 'MESOS_TCP',
};

/**
 * The protocol named `name` (exact spelling; callers upper-case first where any case is allowed):
 * a protocol itself, or an `AGENT_*` alias as its `MESOS_*` name. Undefined for anything else.
 * Also reads names written before the model used `MESOS_*` (a local cluster's state file).
 */
export function healthCheckProtocolOf(name: string): HealthCheckProtocol | undefined {
  return AGENT_PROTOCOL_ALIASES[name] ?? HEALTH_CHECK_PROTOCOLS.find((p) => p === name);
}

/** Protocols run by the scheduler itself through the Prober port. */
export type SchedulerProtocol = 'HTTP' | 'HTTPS' | 'TCP';

/**
 * A normalized health check: an app's `healthChecks[]` entry or a pod container's `healthCheck`
 * (`form` says which JSON states it). Scheduler-run (HTTP/HTTPS/TCP) and agent-run (MESOS_*,
 * COMMAND, pod checks) share this shape; `maxConsecutiveFailures` means different things for the
 * two (see health/README in the core and spec 2.5): 0 = never kill for scheduler-run, kill at the
 * first failure for agent-run.
 */
export interface HealthCheckSpec {
  readonly protocol: HealthCheckProtocol;
  readonly gracePeriodMs: number;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxConsecutiveFailures: number;
  /** Wait before the first check (pods; "no effect" for Marathon-level checks). */
  readonly delayMs: number;
  /**
   * Apps, port-based checks: Marathon's `portIndex`, an index into the app's ports
   * (`appPortSlots`: its port definitions or port mappings); 0 when neither it nor `port` was
   * given. Where that port is on a task: `healthCheckPort`.
   */
  readonly portIndex?: number;
  /** Apps: a fixed port to probe; wins over `portIndex`. */
  readonly port?: number;
  /** Endpoint name (pod checks). */
  readonly endpoint?: string;
  /** HTTP kinds: the path probed (`/` by default; `/` for other kinds, where it is not written). */
  readonly path: string;
  /** HTTP and HTTPS: treat 1xx answers as neither success nor failure. */
  readonly ignoreHttp1xx: boolean;
  /** Shell command (COMMAND, pod exec). */
  readonly command?: string;
  /** Apps: the IP protocol to probe with (`ipProtocol`, default IPv4); IPv4 for pod checks. */
  readonly ipProtocol: 'IPv4' | 'IPv6';
  /** Which of Marathon's JSON forms states the check: an app's `healthChecks[]` entry or a pod container's `healthCheck`. */
  readonly form: 'app' | 'pod';
}

export function isSchedulerRun(protocol: HealthCheckProtocol): protocol is SchedulerProtocol {
  return protocol === 'HTTP' || protocol === 'HTTPS' || protocol === 'TCP';
}
