import type { RunSpec } from '../model/run-spec';
import { withVersion } from '../groups/versioning';

/**
 * A new version of `spec` with another instance count: `version` and `versionInfo.lastScalingAt`
 * become `version` (the change's, from `versionAfter`), `lastConfigChangeAt` stays.
 */
export function withInstances(spec: RunSpec, instances: number, version: string): RunSpec {
  return withVersion({ ...spec, instances }, version, { lastConfigChangeAt: spec.versionInfo.lastConfigChangeAt, lastScalingAt: version });
}
