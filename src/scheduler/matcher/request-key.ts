import type { LaunchRequest } from '../state/launch-request';

const keys = new WeakMap<LaunchRequest, string>();

/**
 * A text that is equal for two launch requests exactly when every filter and the Reserve step
 * treat them alike: role and role rules, resources, host ports and constraints as written (from
 * which the compiled constraints and their counter slots follow), everything but the run spec's
 * id. The matcher shares one specialised pipeline ({@link import('./pipeline').RequestFilters})
 * among the candidates whose requests have the same key, so per-offer work (an agent-only
 * constraint verdict) is done once per offer, not once per run spec. Computed once per request
 * object (requests are immutable, compiled per run spec version).
 */
export function requestKey(req: LaunchRequest): string {
  let key = keys.get(req);
  if (key === undefined) {
    const r = req.resources;
    key = JSON.stringify([
      req.role, req.acceptsUnreserved, req.acceptsReserved, r.cpusMilli, r.memMilli, r.diskMilli, r.gpus, req.hostPorts,
      req.constraints.constraints.map((c) => [c.source.field, c.source.operator, c.source.value ?? null]),
    ]);
    keys.set(req, key);
  }
  return key;
}
