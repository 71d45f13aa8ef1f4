import { sameConfig } from '../model/same-config';
import type { RunSpec, VersionInfo } from '../model/run-spec';

/** What kind of change produced `target`: an ordinary update, or an explicit restart (`POST /v2/apps/{id}/restart`). */
export type VersionChange = 'update' | 'restart';

/**
 * `target` with `version` and `versionInfo` set by Marathon's rules (`upgrade/GroupVersioningUtil`,
 * `state/VersionInfo`), comparing definitions canonically while ignoring instance counts and
 * version fields ({@link sameConfig}):
 *
 * | case | version | lastConfigChangeAt | lastScalingAt |
 * | --- | --- | --- | --- |
 * | new (`original` undefined) | new | new | new |
 * | config change | new | new | new |
 * | scale only (instances differ) | new | kept | new |
 * | restart of an unchanged config | new | new | kept |
 * | nothing changed | kept | kept | kept |
 *
 * A config change wins over a scale or a restart. Nothing changed keeps the stored version (an
 * unchanged PUT restarts nothing, fact 46).
 */
export function stampVersions(original: RunSpec | undefined, target: RunSpec, versionIso: string, change: VersionChange = 'update'): RunSpec {
  const info = nextVersion(original, target, versionIso, change);
  // Nothing changed: the stored run spec itself (an unchanged PUT keeps what is stored, fact 46).
  if (original !== undefined && info.versionInfo === original.versionInfo && original.kind === target.kind) return original;
  return withVersion(target, info.version, info.versionInfo);
}

/**
 * A new version of `spec` with another instance count (a scale-only change): `version` and
 * `versionInfo.lastScalingAt` become `version` (the change's, from `versionAfter`),
 * `lastConfigChangeAt` stays, so nothing restarts.
 */
export function withInstances(spec: RunSpec, instances: number, version: string): RunSpec {
  return withVersion({ ...spec, instances }, version, { lastConfigChangeAt: spec.versionInfo.lastConfigChangeAt, lastScalingAt: version });
}

/** `spec` carrying `version` and `versionInfo` (`spec` itself when it carries them already). */
export function withVersion(spec: RunSpec, version: string, versionInfo: VersionInfo): RunSpec {
  const info = spec.versionInfo;
  if (spec.version === version && info.lastConfigChangeAt === versionInfo.lastConfigChangeAt && info.lastScalingAt === versionInfo.lastScalingAt) return spec;
  return { ...spec, version, versionInfo };
}

function nextVersion(
  original: RunSpec | undefined, target: RunSpec, now: string, change: VersionChange,
): { version: string; versionInfo: VersionInfo } {
  if (original === undefined || !sameConfig(original, target)) {
    return { version: now, versionInfo: { lastConfigChangeAt: now, lastScalingAt: now } };
  }
  const kept = original.versionInfo;
  if (original.instances !== target.instances) {
    return { version: now, versionInfo: { lastConfigChangeAt: kept.lastConfigChangeAt, lastScalingAt: now } };
  }
  if (change === 'restart') {
    return { version: now, versionInfo: { lastConfigChangeAt: now, lastScalingAt: kept.lastScalingAt } };
  }
  return { version: original.version, versionInfo: kept };
}
