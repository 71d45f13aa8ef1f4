import { findGroup, updateGroup, withInstances, type Group, type ChangeOptions } from '../../../scheduler/index';
import { notFoundBare, notFoundText, objectNotValid } from '../../errors';
import { MAX_INSTANCES } from '../../../scheduler/model/run-spec-limits';
import { mapRunSpecs } from './map-run-specs';
import { groupChangeError } from './group-change-error';

/**
 * `PUT /v2/groups/{id}` with `{"scaleBy": f}` (fact 71): every app below the group gets
 * `instances = ceil(instances × f)`, a scale-only change (new `version` and `lastScalingAt`, no
 * restart). Pods are left alone, as Marathon scales only the group's transitive apps. Apps whose
 * count does not change keep their version. An unknown group → 404; a count beyond
 * `MAX_INSTANCES` → 422 at `/scaleBy` (docs/limits.md), before anything changes.
 */
export function scaleGroup(root: Group, groupId: string, factor: number, options: ChangeOptions): Group {
  if (findGroup(root, groupId) === undefined) throw notFoundBare(notFoundText.group(groupId));
  const versionMs = Date.parse(options.version);
  const scaled = (group: Group): Group => mapRunSpecs(group, (spec) => {
    if (spec.kind !== 'app') return spec;
    const instances = scaledCount(spec.instances, factor);
    if (instances > MAX_INSTANCES) {
      throw objectNotValid([{ path: '/scaleBy', errors: [`scales ${spec.id} to ${instances} instances, more than ${MAX_INSTANCES}`] }]);
    }
    return instances === spec.instances ? spec : withInstances(spec, instances, versionMs);
  });
  const result = updateGroup(root, groupId, scaled, options);
  if (!result.ok) throw groupChangeError(result);
  return result.root;
}

/**
 * `ceil(instances × factor)`, ignoring floating-point noise below 1e-9 (10 × 0.3 is
 * 3.0000000000000004 in binary floating point and must scale to 3, not 4).
 */
export function scaledCount(instances: number, factor: number): number {
  return Math.max(0, Math.ceil(instances * factor - 1e-9));
}
