import type { CoreContext } from '../core-context';
import { converge } from '../instances/converge';
import { killInstance } from '../kill/kill-instance';
import type { Command, CommandResult } from '../model/inputs';
import type { Instance } from '../model/instance';
import { withInstances } from './with-instances';

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
  if (cmd.scale) {
    rs.spec = withInstances(rs.spec, Math.max(0, rs.spec.instances - victims.length), ctx.clock.nowMs());
    ctx.store.saveRunSpec(rs.spec);
  }
  const goal = cmd.scale || cmd.wipe ? 'Decommissioned' : 'Running';
  for (const inst of victims) killInstance(ctx, rs, inst, 'user', goal);
  converge(ctx, rs);
  return { ok: true };
}
