import type { ChangeOptions } from './change-options';
import type { Group } from './group';
import { type GroupResult, groupFailure } from './group-result';
import { mapRunSpecs } from './map-run-specs';
import { findGroup } from './tree-query';
import { updateGroup } from './update-group';
import { withInstances } from './versioning';
import { MAX_INSTANCES } from '../model/run-spec-limits';

/**
 * `PUT /v2/groups/{id}` with `{"scaleBy": f}` (fact 71): every app below the group gets
 * `instances = ceil(instances × f)`, a scale-only change (new `version` and `lastScalingAt`, no
 * restart). Pods are left alone, as Marathon scales only the group's transitive apps. Apps whose
 * count does not change keep their version. Refused with `unknown-group` for an unknown group, and
 * with `too-many-instances` (its message names the app) when a count would pass `MAX_INSTANCES`
 * (docs/limits.md), before anything changes.
 */
export function scaleGroup(root: Group, groupId: string, factor: number, options: ChangeOptions): GroupResult {
  if (findGroup(root, groupId) === undefined) return groupFailure('unknown-group', `Group '${groupId}' does not exist`);
  let tooMany: string | undefined;
  const scaled = (group: Group): Group => mapRunSpecs(group, (spec) => {
    if (spec.kind !== 'app') return spec;
    const instances = scaledCount(spec.instances, factor);
    if (instances > MAX_INSTANCES) {
      tooMany ??= `scales ${spec.id} to ${instances} instances, more than ${MAX_INSTANCES}`;
      return spec;
    }
    return instances === spec.instances ? spec : withInstances(spec, instances, options.version);
  });
  const result = updateGroup(root, groupId, scaled, options);
  if (tooMany !== undefined) return groupFailure('too-many-instances', tooMany);
  return result;
}

/**
 * `ceil(instances × factor)`, ignoring floating-point noise below 1e-9 (10 × 0.3 is
 * 3.0000000000000004 in binary floating point and must scale to 3, not 4).
 */
export function scaledCount(instances: number, factor: number): number {
  return Math.max(0, Math.ceil(instances * factor - 1e-9));
}
