/**
 * A normalized app readiness check (Marathon's `readinessChecks[0]`; pods have none, spec rule 6).
 * A deployment-time gate: a new instance counts toward a deployment's progress only once it is
 * running, healthy (when it has health checks) and ready (fact 119).
 */
export interface ReadinessCheckSpec {
  readonly name: string;
  readonly protocol: 'HTTP' | 'HTTPS';
  readonly path: string;
  readonly portName: string;
  /** Index into the instance's host ports of the port `portName` names. */
  readonly portIndex: number;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** HTTP status codes that mean ready (default [200]). */
  readonly httpStatusCodesForReady: readonly number[];
  /** Keep the last response (status, content type, body) in the results. */
  readonly preserveLastResponse: boolean;
}

/** One instance's readiness as `/v2/deployments` and `embed=app.readiness` show it. */
export interface ReadinessCheckResult {
  readonly name: string;
  readonly taskId: string;
  readonly ready: boolean;
  /** The last HTTP response when `preserveLastResponse`; null otherwise or before any answer. */
  readonly lastResponse: { readonly status: number; readonly contentType: string; readonly body: string } | null;
}
