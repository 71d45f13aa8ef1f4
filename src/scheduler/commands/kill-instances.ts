import type { CommandContext } from './command-context';
import { converge } from '../instances/converge';
import { isActive } from '../instances/instance-tracker';
import { killInstance } from '../kill/kill-instance';
import type { Command, CommandResult } from '../model/inputs';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { versionAfter } from '../groups/version-after';
import { withInstances } from '../groups/versioning';
import { findRunSpec } from '../groups/tree-query';
import { deployChange } from './deploy-change';
import { WHOLE_ROOT_GROUP_ID } from '../groups/changed-group-id';
import { uuidFrom } from '../kernel/ids';

type KillCommand = Extract<Command, { type: 'killInstances' }>;
type KillAndScaleCommand = Extract<Command, { type: 'killAndScale' }>;

/**
 * Kill instances of a run spec. The API names instances it has just seen; one that is no longer
 * held when the command runs (it ended and was forgotten in between) is skipped, as Marathon skips
 * ids that match no instance (fact 58); an unknown run spec rejects the command.
 * - `scale`: kill and lower the target by the number killed that count ({@link lowersTarget});
 * - `wipe`: kill and forget; a fresh instance replaces it;
 * - neither: kill; the same instance is relaunched (no backoff: the user asked for it).
 */
export function killInstances(ctx: CommandContext, cmd: KillCommand): CommandResult {
  const found = victimsOf(ctx, cmd.runSpecId, cmd.instanceIds);
  if (!('rs' in found)) return found;
  const { rs, victims } = found;
  if (cmd.scale && victims.length === 0) return nothingToScale(ctx);
  const lockedBy = cmd.scale && cmd.force !== true ? ctx.deployments.holding(rs.spec.id) : [];
  if (lockedBy.length > 0) {
    return { ok: false, error: 'locked', message: `App is locked by one or more deployments. Override with the option '?force=true'. Locking deployments: ${lockedBy.join(', ')}`, deployments: lockedBy };
  }
  const goal = cmd.scale || cmd.wipe ? 'Decommissioned' : 'Running';
  // Counted before the kills, which change the victims' goals.
  const lowered = victims.filter(lowersTarget).length;
  for (const inst of victims) killInstance(ctx, rs, inst, 'user', goal);
  if (!cmd.scale) {
    converge(ctx, rs);
    return { ok: true };
  }
  if (lowered === 0) return nothingToScale(ctx);
  // Kill-and-scale: the victims are already going; a scale-only deployment records the new count.
  const current = findRunSpec(ctx.state.root, rs.spec.id) ?? rs.spec;
  const scaled = withInstances(current, Math.max(0, current.instances - lowered), versionAfter(ctx.clock.nowMs(), ctx.state.root.version));
  return deployChange(ctx, ctx.groups.withRunSpec(ctx.state.root, scaled, scaled.version), true, WHOLE_ROOT_GROUP_ID);
}

/**
 * Kill-and-scale across run specs as one deployment (Marathon's `/v2/tasks/delete?scale=true`,
 * fact 58): every id is checked first and every lock (unless `force`), so a refused command kills
 * nothing; then the victims are killed, and one root with every target lowered by its number of
 * victims is deployed as a single scale-only plan. Nothing to kill: nothing changes
 * ({@link nothingToScale}).
 */
export function killAndScale(ctx: CommandContext, cmd: KillAndScaleCommand): CommandResult {
  const plan: Victims[] = [];
  for (const target of cmd.targets) {
    const found = victimsOf(ctx, target.runSpecId, target.instanceIds);
    if (!('rs' in found)) return found;
    plan.push(found);
  }
  if (plan.every(({ victims }) => victims.length === 0)) return nothingToScale(ctx);
  // Counted before the kills, which change the victims' goals.
  const lowered = plan.map(({ victims }) => victims.filter(lowersTarget).length);
  const lockedBy = cmd.force === true ? [] : [...new Set(plan.flatMap(({ rs }) => ctx.deployments.holding(rs.spec.id)))];
  if (lockedBy.length > 0) {
    return { ok: false, error: 'locked', message: `App is locked by one or more deployments. Override with the option '?force=true'. Locking deployments: ${lockedBy.join(', ')}`, deployments: lockedBy };
  }
  let root = ctx.state.root;
  const version = versionAfter(ctx.clock.nowMs(), root.version);
  for (const [i, { rs, victims }] of plan.entries()) {
    for (const inst of victims) killInstance(ctx, rs, inst, 'user', 'Decommissioned');
    if (lowered[i] === 0) continue;
    const current = findRunSpec(root, rs.spec.id) ?? rs.spec;
    const scaled = withInstances(current, Math.max(0, current.instances - lowered[i]), version);
    const next = ctx.groups.withRunSpec(root, scaled, scaled.version);
    if (!next.ok) return { ok: false, error: 'invalid', message: next.message };
    root = next.root;
  }
  if (root === ctx.state.root) return nothingToScale(ctx);
  return deployChange(ctx, { ok: true, root }, true, WHOLE_ROOT_GROUP_ID);
}

/**
 * Whether killing this instance with `scale` lowers its run spec's target: only an instance that
 * fills it (active: goal Running, not terminal, not replaced as unreachable) and is not being
 * killed already counts. Marathon's kill-and-scale counts `isActive && !isKilling` the same way
 * (TaskKiller, fact 55), so a second kill-and-scale of a task still in its grace period, or one
 * named twice, does not lower `instances` again and bring healthy instances down with it.
 */
function lowersTarget(inst: Instance): boolean {
  return isActive(inst) && inst.condition !== 'Killing';
}

/**
 * A kill-and-scale that kills nothing changes nothing: no deployment is started and no root
 * version written. The answer keeps Marathon's shape (fact 58: a DeploymentResult; Marathon
 * deploys a plan without steps, which ends at once): a fresh deployment id that names no running
 * deployment, and the current root version.
 */
function nothingToScale(ctx: CommandContext): CommandResult {
  return { ok: true, deploymentId: uuidFrom(ctx.random), version: ctx.state.root.version };
}

/** A run spec and the distinct instances of it a command names. */
interface Victims {
  readonly rs: RunSpecState;
  readonly victims: Instance[];
}

/**
 * The named instances of a run spec that it still holds, each once; an unknown run spec fails the
 * command. An id it no longer holds is skipped: the API named what it saw, and an input that ran
 * before the command (a TASK_KILLED of an earlier kill) may have forgotten it since.
 */
function victimsOf(ctx: CommandContext, runSpecId: string, instanceIds: readonly string[]): Victims | Extract<CommandResult, { ok: false }> {
  const rs = ctx.state.runSpecs.get(runSpecId);
  if (rs === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  const victims: Instance[] = [];
  for (const id of instanceIds) {
    const inst = rs.instances.get(id);
    if (inst !== undefined && !victims.includes(inst)) victims.push(inst);
  }
  return { rs, victims };
}
