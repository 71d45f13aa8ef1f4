import type { RunSpecState } from '../state/run-spec-state';
import { compileLaunchRequest, type LaunchRequest } from '../state/launch-request';

/** Launch requests of a run spec for roles other than its own, per spec version (see {@link requestFor}). */
const byRole = new WeakMap<RunSpecState, { readonly version: string; readonly requests: Map<string, LaunchRequest> }>();

/**
 * The launch request to match an instance of `rs` that runs under `role`: the run spec's own
 * request when the role is the spec's (always, except for resident instances that kept the role of
 * their reservations after a forced role change, fact 114); otherwise the same request for that
 * role, compiled once per run spec version and role.
 */
export function requestFor(rs: RunSpecState, role: string): LaunchRequest {
  if (role === rs.request.role) return rs.request;
  let cache = byRole.get(rs);
  if (cache === undefined || cache.version !== rs.spec.version) {
    cache = { version: rs.spec.version, requests: new Map() };
    byRole.set(rs, cache);
  }
  let request = cache.requests.get(role);
  if (request === undefined) {
    request = compileLaunchRequest({ ...rs.spec, role });
    cache.requests.set(role, request);
  }
  return request;
}
