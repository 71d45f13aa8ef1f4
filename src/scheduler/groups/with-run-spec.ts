import { assert } from '../kernel/assert';
import type { RunSpec } from '../model/run-spec';
import type { ChangeOptions } from './change-options';
import type { GroupResult } from './group-result';
import { mapWith, mapWithout, newGroup, stampTree, withGroupAt } from './group-tree';
import type { Group } from './group';
import { namespaceConflict } from './namespace-conflict';
import { ROOT_ID, isCanonical, parentOf } from './path-id';

/**
 * Adds or replaces an app or pod (Marathon's `RootGroup.updateApp` / `updatePod`). Missing parent
 * groups are created empty (`/dev/apps/sleeper` creates `/dev` and `/dev/apps`); a created
 * top-level group gets `enforceRole` from `options.newGroupEnforceRole` (fact 112). A group with
 * the same id that holds no run spec is replaced. The new root and every group in it carry
 * `options.version`; the run spec is stored as given (stamp it first with `stampVersions`).
 *
 * Refused with `namespace-conflict` when the id or one of its ancestors is used by another kind.
 */
export function withRunSpec(root: Group, spec: RunSpec, options: ChangeOptions): GroupResult {
  if (!(isCanonical(spec.id) && spec.id !== ROOT_ID)) assert(false, `run spec id must be canonical and not the root: ${spec.id}`);
  const conflict = namespaceConflict(root, spec.id, spec.kind);
  if (conflict !== undefined) return conflict;
  const parentId = parentOf(spec.id);
  const next = withGroupAt(root, parentId, (existing) => {
    const parent = existing ?? newGroup(parentId, options.version, options.newGroupEnforceRole);
    const groups = parent.groups.has(spec.id) ? mapWithout(parent.groups, spec.id) : parent.groups;
    return spec.kind === 'app'
      ? { ...parent, groups, apps: mapWith(parent.apps, spec.id, spec) }
      : { ...parent, groups, pods: mapWith(parent.pods, spec.id, spec) };
  }, options.newGroupEnforceRole);
  return { ok: true, root: stampTree(next, options.version) };
}
