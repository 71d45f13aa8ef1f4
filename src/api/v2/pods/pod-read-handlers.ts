import type { ApiDeps } from '../../api-deps';
import { notFound, notFoundText } from '../../errors';
import { podDefinitionJson } from '../../../marathon/render/pod-definition-json';
import { podStatusJson } from '../../render/pod-status-json';
import { versionKey } from '../../version-text';
import { podsForQuery } from './pod-ids-for-query';

/** `GET /v2/pods` (fact 82): every pod, as queries report it (spec rule 13). */
export function listPods(deps: ApiDeps): Record<string, unknown>[] {
  return podsForQuery(deps).map((pod) => podDefinitionJson(pod));
}

/** `GET /v2/pods/{id}`: the pod (the previous version while a redeployment runs, rule 13); unknown → 404 (fact 83). */
export function getPod(deps: ApiDeps, id: string): Record<string, unknown> {
  const spec = deps.scheduler.podForQuery(id);
  if (spec?.kind !== 'pod') throw notFound(notFoundText.pod(id));
  return podDefinitionJson(spec);
}

/** `GET /v2/pods/{id}::status` (fact 81); unknown → 404 `Pod '/x' does not exist` (fact 83). */
export function getPodStatus(deps: ApiDeps, id: string): Record<string, unknown> {
  const status = podStatusJson(deps, id);
  if (status === undefined) throw notFound(notFoundText.pod(id));
  return status;
}

/** `GET /v2/pods/::status` (fact 82): the status of every pod. */
export function listPodStatus(deps: ApiDeps): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const spec of podsForQuery(deps)) {
    const status = podStatusJson(deps, spec.id);
    if (status !== undefined) out.push(status);
  }
  return out;
}

/**
 * `GET /v2/pods/{id}::versions` (fact 86): a bare array of the stored versions, newest first. The
 * history belongs to the id (spec rule 12), so a pod created again lists its earlier versions too.
 * An unknown pod → 404 (fact 83).
 */
export function getPodVersions(deps: ApiDeps, id: string): string[] {
  if (deps.scheduler.podForQuery(id)?.kind !== 'pod') throw notFound(notFoundText.pod(id));
  return deps.scheduler.versions(id);
}

/**
 * `GET /v2/pods/{id}::versions/{version}` (fact 86): that stored version of the pod. The version
 * may be written in any ISO 8601 form (`…:00Z` finds `…:00.000Z`). Unknown → 404.
 */
export function getPodVersion(deps: ApiDeps, id: string, version: string): Record<string, unknown> {
  const spec = deps.scheduler.runSpecVersion(id, versionKey(version));
  if (spec?.kind !== 'pod') throw notFound(notFoundText.pod(id));
  return podDefinitionJson(spec);
}
