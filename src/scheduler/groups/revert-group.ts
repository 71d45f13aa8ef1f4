import type { ChangeOptions } from './change-options';
import type { Group } from './group';
import { type GroupResult, groupFailure } from './group-result';
import { mapRunSpecs } from './map-run-specs';
import { putGroup } from './put-group';
import { findGroup, findRunSpec } from './tree-query';
import { stampVersions } from './versioning';

/**
 * `PUT /v2/groups/{id}` with `{"version": v}` (fact 71): the group becomes what it was in the
 * stored root `storedRoot` (version `version`), subtree, apps and pods included. Run specs are
 * stamped against what runs now, as Marathon's versioning does: one whose definition equals the
 * current one keeps its version (nothing restarts), a changed one gets the new version and is
 * restarted by the deployment, a deleted one comes back. Refused with `unavailable-version`
 * (`Group /g not available in version <v>`, Marathon's IllegalArgumentException) when that
 * version has no such group.
 */
export function revertGroup(root: Group, groupId: string, version: string, storedRoot: Group | undefined, options: ChangeOptions): GroupResult {
  const old = storedRoot === undefined ? undefined : findGroup(storedRoot, groupId);
  if (old === undefined) return groupFailure('unavailable-version', `Group ${groupId} not available in version ${version}`);
  const stamped = mapRunSpecs(old, (spec) => {
    const current = findRunSpec(root, spec.id);
    return stampVersions(current?.kind === spec.kind ? current : undefined, spec, options.version);
  });
  return putGroup(root, stamped, options);
}
