import { isoTime } from '../kernel/iso-time';
import type { RunSpec } from '../model/run-spec';
import { withVersion } from '../groups/versioning';

/**
 * A new version of `spec` with another instance count: `version` and `versionInfo.lastScalingAt`
 * move, `lastConfigChangeAt` stays; the wire definition says the same.
 */
export function withInstances(spec: RunSpec, instances: number, nowMs: number): RunSpec {
  const version = isoTime(nowMs);
  const def = spec.definition as Record<string, unknown>;
  const definition = spec.kind === 'app' ? { ...def, instances } : { ...def, scaling: { ...(def.scaling as Record<string, unknown> | undefined), instances } };
  return withVersion({ ...spec, instances, definition }, version, { lastConfigChangeAt: spec.versionInfo.lastConfigChangeAt, lastScalingAt: version });
}
