import type { CommandContext } from './command-context';
import type { CommandResult, RootChange, RootChangePreview } from '../model/inputs';
import { deployResult, refusedDeploy } from './deploy-result';
import { rootAfter } from './root-after';
import { rootChangeGroupId } from '../groups/changed-group-id';

/**
 * A change of the root group named by its meaning (bulk app updates, group updates, reverts,
 * scales, removals): the core builds the new root ({@link rootAfter}) and deploys it as one
 * deployment. Refused while a deployment holds an affected run spec, unless `force`.
 */
export function changeRoot(ctx: CommandContext, change: RootChange, force: boolean): CommandResult {
  const target = rootAfter(ctx, change);
  if (!target.ok) return target;
  return deployResult(ctx.deployments.deploy(ctx, target.root, force, rootChangeGroupId(change)));
}

/**
 * A dry run of `change` (`?dryRun=true`): the root it would give (dynamic service ports assigned,
 * as the deployment manager assigns them) and the deployment plan from the current root to it,
 * with the id `dry-run`, or the refusal a deployment of it would get (a dependency cycle, an
 * exhausted service port range). Changes nothing.
 */
export function previewRootChange(ctx: CommandContext, change: RootChange): RootChangePreview {
  const target = rootAfter(ctx, change);
  if (!target.ok) return target;
  const preview = ctx.deployments.preview(ctx, target.root);
  if (!preview.ok) return refusedDeploy(preview);
  return { ok: true, root: preview.root, plan: preview.plan };
}
