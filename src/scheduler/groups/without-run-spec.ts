import type { RemoveOptions } from './change-options';
import { assert } from '../kernel/assert';
import type { GroupResult } from './group-result';
import { groupFailure } from './group-result';
import { mapWithout, stampTree, withGroupAt } from './group-tree';
import type { Group } from './group';
import { parentOf } from './path-id';
import { findRunSpec } from './tree-query';

/**
 * Removes an app or pod (Marathon's `RootGroup.removeApp` / `removePod`); its group stays, even when
 * it becomes empty. The new root and every group in it carry `options.version`. Refused with
 * `unknown-run-spec` when nothing has this id. History of the id is kept elsewhere
 * (`VersionHistory`) and survives (an app's while a kept root version holds it, a pod's for good).
 */
export function withoutRunSpec(root: Group, id: string, options: RemoveOptions): GroupResult {
  const spec = findRunSpec(root, id);
  if (spec === undefined) return groupFailure('unknown-run-spec', `Run spec '${id}' does not exist`);
  const next = withGroupAt(root, parentOf(id), (parent) => {
    if (parent === undefined) assert(false, `the parent of ${id} exists`);
    return spec.kind === 'app' ? { ...parent, apps: mapWithout(parent.apps, id) } : { ...parent, pods: mapWithout(parent.pods, id) };
  }, 'off');
  return { ok: true, root: stampTree(next, options.version) };
}
