/** Health check protocols of apps (spec 2.5); pod checks map http/tcp/exec onto the agent-run ones. */
export type HealthCheckProtocol = 'HTTP' | 'HTTPS' | 'TCP' | 'COMMAND' | 'AGENT_HTTP' | 'AGENT_HTTPS' | 'AGENT_TCP';

/** Protocols run by the scheduler itself through the Prober port. */
export type SchedulerProtocol = 'HTTP' | 'HTTPS' | 'TCP';

/**
 * A normalized health check. Scheduler-run (HTTP/HTTPS/TCP) and agent-run (AGENT_*, COMMAND, pod
 * checks) share this shape; `maxConsecutiveFailures` means different things for the two
 * (see health/README in the core and spec 2.5): 0 = never kill for scheduler-run, kill at the first
 * failure for agent-run.
 */
export interface HealthCheckSpec {
  readonly protocol: HealthCheckProtocol;
  readonly gracePeriodMs: number;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxConsecutiveFailures: number;
  /** Wait before the first check (pods; "no effect" for Marathon-level checks). */
  readonly delayMs: number;
  /** Index into the instance's host ports (apps). */
  readonly portIndex?: number;
  /** A fixed port; wins over `portIndex`. */
  readonly port?: number;
  /** Endpoint name (pod checks). */
  readonly endpoint?: string;
  readonly path: string;
  readonly ignoreHttp1xx: boolean;
  /** Shell command (COMMAND, pod exec). */
  readonly command?: string;
  /** The definition's health check object with defaults filled, for events (`healthCheck`). */
  readonly wire: Readonly<Record<string, unknown>>;
}

export function isSchedulerRun(protocol: HealthCheckProtocol): protocol is SchedulerProtocol {
  return protocol === 'HTTP' || protocol === 'HTTPS' || protocol === 'TCP';
}
