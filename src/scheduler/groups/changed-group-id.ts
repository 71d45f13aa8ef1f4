import type { RootChange } from '../model/inputs';
import { parentOf, ROOT_ID } from './path-id';

/**
 * The group a root change names in `group_change_success` and `group_change_failed` (fact 107):
 * the scope the command addressed, never something derived from the plan (a change with nothing
 * to do has no affected run spec, and a plan may touch one group while the command addressed
 * another). This is Marathon's rule: every change passes `GroupManager.updateRoot(id, …)` and the
 * events carry that `id`:
 *
 * - one app or pod (create, update, scale, restart, delete): its parent group
 *   ({@link runSpecChangeGroupId});
 * - a group (create, update, revert to a version, scale, delete, `enforceRole`): the group's
 *   parent, `/` for the root itself ({@link rootChangeGroupId}, {@link groupChangeGroupId});
 * - the whole root: a bulk app update (`PUT/PATCH /v2/apps`), kill-and-scale (one app or many:
 *   Marathon's `TaskKiller.killAndScale` changes the root), a rollback of a canceled deployment,
 *   a root replaced at once (the simulator's `deploy`): `/` ({@link WHOLE_ROOT_GROUP_ID}).
 */
export const WHOLE_ROOT_GROUP_ID = ROOT_ID;

/** The group a change of one app or pod names: its parent (`/prod/web` → `/prod`). */
export function runSpecChangeGroupId(runSpecId: string): string {
  return parentOf(runSpecId);
}

/** The group a change of the group `groupId` names: its parent (`/prod/api` → `/prod`; `/` → `/`). */
export function groupChangeGroupId(groupId: string): string {
  return parentOf(groupId);
}

/** The group a {@link RootChange} of the groups or bulk app API names. */
export function rootChangeGroupId(change: RootChange): string {
  switch (change.kind) {
    case 'putRunSpecs':
      return WHOLE_ROOT_GROUP_ID;
    case 'updateGroup':
      return groupChangeGroupId(change.update.id);
    case 'revertGroup':
    case 'scaleGroup':
    case 'removeGroup':
      return groupChangeGroupId(change.groupId);
  }
}
