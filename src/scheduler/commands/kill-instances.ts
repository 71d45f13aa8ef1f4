import type { CoreContext } from '../core-context';
import { converge } from '../instances/converge';
import { killInstance } from '../kill/kill-instance';
import type { Command, CommandResult } from '../model/inputs';
import type { Instance } from '../model/instance';
import { withInstances } from './with-instances';
import { findRunSpec } from '../groups/tree-query';
import { deployChange } from './deploy-change';

type KillCommand = Extract<Command, { type: 'killInstances' }>;

/**
 * Kill instances of a run spec (all or nothing: unknown ids reject the whole command).
 * - `scale`: kill and lower the target by the number killed (kill-and-scale);
 * - `wipe`: kill and forget; a fresh instance replaces it;
 * - neither: kill; the same instance is relaunched (no backoff: the user asked for it).
 */
export function killInstances(ctx: CoreContext, cmd: KillCommand): CommandResult {
  const rs = ctx.state.runSpecs.get(cmd.runSpecId);
  if (rs === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${cmd.runSpecId}' does not exist` };
  const victims: Instance[] = [];
  for (const id of cmd.instanceIds) {
    const inst = rs.instances.get(id);
    if (inst === undefined) return { ok: false, error: 'unknown-instance', message: `Instance '${id}' does not exist` };
    if (!victims.includes(inst)) victims.push(inst);
  }
  const lockedBy = cmd.scale && cmd.force !== true ? ctx.deployments.holding(rs.spec.id) : [];
  if (lockedBy.length > 0) {
    return { ok: false, error: 'locked', message: `App is locked by one or more deployments. Override with the option '?force=true'. Locking deployments: ${lockedBy.join(', ')}`, deployments: lockedBy };
  }
  const goal = cmd.scale || cmd.wipe ? 'Decommissioned' : 'Running';
  for (const inst of victims) killInstance(ctx, rs, inst, 'user', goal);
  if (!cmd.scale) {
    converge(ctx, rs);
    return { ok: true };
  }
  // Kill-and-scale: the victims are already going; a scale-only deployment records the new count.
  const current = findRunSpec(ctx.state.root, rs.spec.id) ?? rs.spec;
  const scaled = withInstances(current, Math.max(0, current.instances - victims.length), ctx.clock.nowMs());
  return deployChange(ctx, ctx.groups.putRunSpec(ctx.state.root, scaled, scaled.version), true, rs.spec.id);
}
