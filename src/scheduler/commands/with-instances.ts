import { isoTime } from '../kernel/iso-time';
import type { RunSpec } from '../model/run-spec';

/**
 * A new version of `spec` with another instance count: `version` and `versionInfo.lastScalingAt`
 * move, `lastConfigChangeAt` stays; the wire definition says the same.
 */
export function withInstances(spec: RunSpec, instances: number, nowMs: number): RunSpec {
  const version = isoTime(nowMs);
  const versionInfo = { lastConfigChangeAt: spec.versionInfo.lastConfigChangeAt, lastScalingAt: version };
  const def = spec.definition as Record<string, unknown>;
  const definition = spec.kind === 'app'
    ? { ...def, instances, version, versionInfo }
    : { ...def, scaling: { ...(def.scaling as Record<string, unknown> | undefined), instances }, version };
  return { ...spec, instances, version, versionInfo, definition };
}
