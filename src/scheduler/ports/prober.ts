/**
 * Scheduler-run health checks (HTTP, HTTPS, TCP). The prober only performs the request; the core
 * judges the outcome (200–399 passes, `ignoreHttp1xx`, timeouts). The result comes back later as a
 * `probeResult` input carrying the same `probeId`.
 */
export interface Prober {
  probe(request: ProbeRequest): void;
}

export interface ProbeRequest {
  readonly probeId: number;
  readonly instanceId: string;
  readonly taskId: string;
  /** Index of the health check within the run spec's `healthChecks`. */
  readonly checkIndex: number;
  readonly protocol: 'HTTP' | 'HTTPS' | 'TCP';
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly timeoutMs: number;
  /** `readiness` for readiness checks (the response body may be kept); health checks otherwise. */
  readonly purpose?: 'health' | 'readiness';
}

/** What the prober observed. Exactly one of `httpStatus` / `connected` / `timedOut` tells it. */
export interface ProbeObservation {
  readonly probeId: number;
  /** HTTP status code, for HTTP and HTTPS probes that got an answer in time. */
  readonly httpStatus?: number;
  /** TCP probes: whether the connection was established in time. */
  readonly connected?: boolean;
  /** True when no answer arrived within `timeoutMs`. */
  readonly timedOut?: boolean;
  /** Readiness probes: the response's content type and body (for `preserveLastResponse`). */
  readonly contentType?: string;
  readonly body?: string;
  /** Free text for logs and `lastFailureCause`. */
  readonly message?: string;
}
