import type { CoreContext } from '../core-context';
import type { GroupResult } from '../groups/group-result';
import type { CommandResult } from '../model/inputs';
import { deployResult } from './deploy-result';
import { parentOf } from '../groups/path-id';

/** Deploys a changed root, or reports why the change was refused (namespace conflict, unknown id). */
export function deployChange(ctx: CoreContext, change: GroupResult, force: boolean, runSpecId?: string): CommandResult {
  if (!change.ok) return { ok: false, error: change.error === 'unknown-run-spec' || change.error === 'unknown-group' ? 'unknown-run-spec' : 'conflict', message: change.message };
  return deployResult(ctx.deployments.deploy(ctx, change.root, force, runSpecId === undefined ? undefined : parentOf(runSpecId)));
}
