import type { HealthCheckSpec } from '../model/health-check';
import type { ProbeObservation } from '../ports/prober';

/** Verdict on one probe: it counts as a pass or a failure, or is ignored (1xx with `ignoreHttp1xx`). */
export type ProbeVerdict = { readonly kind: 'pass' } | { readonly kind: 'fail'; readonly cause: string } | { readonly kind: 'ignore' };

/**
 * Spec 2.5 rules: an HTTP(S) check passes on 200–399 within the timeout; with `ignoreHttp1xx`
 * answers 100–199 leave the health unchanged (otherwise they fail); a TCP check passes when the
 * connection is established in time; a timeout always fails.
 */
export function judgeProbe(check: HealthCheckSpec, obs: ProbeObservation): ProbeVerdict {
  if (obs.timedOut === true) return { kind: 'fail', cause: `timed out after ${check.timeoutMs} ms` };
  if (check.protocol === 'TCP') {
    return obs.connected === true ? PASS : { kind: 'fail', cause: obs.message ?? 'connection refused' };
  }
  const status = obs.httpStatus;
  if (status === undefined) return { kind: 'fail', cause: obs.message ?? 'no response' };
  if (status >= 200 && status <= 399) return PASS;
  if (status >= 100 && status <= 199 && check.ignoreHttp1xx) return IGNORE;
  return { kind: 'fail', cause: `HTTP ${status}` };
}

const PASS: ProbeVerdict = { kind: 'pass' };
const IGNORE: ProbeVerdict = { kind: 'ignore' };
