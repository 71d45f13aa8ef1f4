import type { PodSpec } from '../../scheduler/model/run-spec';

/**
 * A pod as the API shows it (`POST`/`PUT`/`GET /v2/pods…`, `::versions/{v}`, the `spec` of a pod
 * status, group views): the stored wire definition, which already has every default filled in,
 * empty collections as `[]`/`{}` and unset optional scalars as `null` (spec 2.1), plus the
 * version stamps of this version of the pod. `version` and `versionInfo` come from the spec, not
 * the definition, because a scale-only change moves them without rewriting the definition.
 */
export function podJson(spec: PodSpec): Record<string, unknown> {
  return { ...spec.definition, version: spec.version, versionInfo: { ...spec.versionInfo } };
}
