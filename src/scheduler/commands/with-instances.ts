import { isoTime } from '../kernel/iso-time';
import type { RunSpec } from '../model/run-spec';
import { withVersion } from '../groups/versioning';

/**
 * A new version of `spec` with another instance count: `version` and `versionInfo.lastScalingAt`
 * move, `lastConfigChangeAt` stays.
 */
export function withInstances(spec: RunSpec, instances: number, nowMs: number): RunSpec {
  const version = isoTime(nowMs);
  return withVersion({ ...spec, instances }, version, { lastConfigChangeAt: spec.versionInfo.lastConfigChangeAt, lastScalingAt: version });
}
