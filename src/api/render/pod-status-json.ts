import type { ApiDeps } from '../api-deps';
import { findRunSpec, isoTime } from '../../scheduler/index';
import type { Instance } from '../../scheduler/model/instance';
import type { PodSpec } from '../../scheduler/model/pod';
import { podDefinitionJson } from '../../marathon/render/pod-definition-json';
import { isVisibleInStatus, podInstanceStatusJson } from './pod-instance-status-json';
import { terminationHistoryJson } from './termination-history-json';

/** Status of a whole pod (fact 81). */
export type PodState = 'STABLE' | 'DEGRADED' | 'TERMINAL';

/**
 * The status of one pod (`GET /v2/pods/{id}::status`, spec section 4, fact 81), or undefined when
 * no such pod can be queried. Fields: `id`, `spec` (the pod as queries report it: while a
 * redeployment runs, the previous version, spec rule 13), `status`, `statusSince` (the latest
 * instance change, or now without instances), `instances` (placed instances only),
 * `terminationHistory` (the pod's last task failure while an instance still holds its task, as
 * Marathon: termination-history-json.ts), `lastUpdated` (now)
 * and `lastChanged` (= `statusSince`).
 *
 * `status`: TERMINAL while the pod is being deleted (it is gone from the root but its deletion
 * has not finished); STABLE when at least `scaling.instances` instances are STABLE; otherwise
 * DEGRADED.
 */
export function podStatusJson(deps: ApiDeps, podId: string): Record<string, unknown> | undefined {
  const found = deps.scheduler.podForQuery(podId);
  if (found === undefined || found.kind !== 'pod') return undefined;
  const spec: PodSpec = found;
  const nowMs = deps.clock.nowMs();
  const all = deps.scheduler.instances(podId);
  const visible = all.filter(isVisibleInStatus);
  const instances = visible.map((inst) => podInstanceStatusJson(podId, inst, specOf(deps, spec, inst)));
  const sinceMs = visible.length === 0 ? nowMs : Math.max(...visible.map((i) => i.conditionSinceMs));
  const deleting = findRunSpec(deps.scheduler.root(), podId) === undefined;
  const stable = instances.filter((i) => i.status === 'STABLE').length;
  const status: PodState = deleting ? 'TERMINAL' : stable >= spec.instances ? 'STABLE' : 'DEGRADED';
  return {
    id: podId,
    spec: podDefinitionJson(spec),
    status,
    statusSince: isoTime(sinceMs),
    instances,
    terminationHistory: terminationHistoryJson(deps.scheduler.lastTaskFailure(podId), all),
    lastUpdated: isoTime(nowMs),
    lastChanged: isoTime(sinceMs),
  };
}

/** The pod version an instance runs (for its containers' endpoints and resources). */
function specOf(deps: ApiDeps, current: PodSpec, inst: Instance): PodSpec {
  const stored = deps.scheduler.runSpecVersion(current.id, inst.runSpecVersion);
  return stored?.kind === 'pod' ? stored : current;
}
