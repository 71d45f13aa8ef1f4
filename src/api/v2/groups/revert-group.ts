import { putGroup, findGroup, findRunSpec, stampVersions, type ChangeOptions, type Group } from '../../../scheduler/index';
import { illegalArgument } from '../../errors';
import { groupChangeError } from './group-change-error';
import { mapRunSpecs } from './map-run-specs';

/**
 * `PUT /v2/groups/{id}` with `{"version": v}` (fact 71): the group becomes what it was in the
 * stored root `storedRoot` (version `v`), subtree, apps and pods included. Run specs are stamped
 * against what runs now, as Marathon's versioning does: one whose definition equals the current
 * one keeps its version (nothing restarts), a changed one gets the new version and is restarted
 * by the deployment, a deleted one comes back. A version with no such group → 422
 * `Group /g not available in version <v>` (Marathon's IllegalArgumentException).
 */
export function revertGroup(root: Group, groupId: string, version: string, storedRoot: Group | undefined, options: ChangeOptions): Group {
  const old = storedRoot === undefined ? undefined : findGroup(storedRoot, groupId);
  if (old === undefined) throw illegalArgument(`Group ${groupId} not available in version ${version}`);
  const stamped = mapRunSpecs(old, (spec) => {
    const current = findRunSpec(root, spec.id);
    return stampVersions(current?.kind === spec.kind ? current : undefined, spec, options.version);
  });
  const result = putGroup(root, stamped, options);
  if (!result.ok) throw groupChangeError(result);
  return result.root;
}
