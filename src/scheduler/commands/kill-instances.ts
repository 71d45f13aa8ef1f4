import type { CommandContext } from './command-context';
import { converge } from '../instances/converge';
import { isActiveCondition, isTerminalCondition } from '../model/condition';
import { expungeInstance } from '../instances/instance-lifecycle';
import { setCondition } from '../instances/instance-tracker';
import { killInstance } from '../kill/kill-instance';
import type { Command, CommandResult } from '../model/inputs';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { versionAfter } from '../groups/version-after';
import { withInstances } from '../groups/versioning';
import { findRunSpec } from '../groups/tree-query';
import { deployChange } from './deploy-change';
import { lockedMessage } from '../deployments/deployment-manager';
import { WHOLE_ROOT_GROUP_ID } from '../groups/changed-group-id';
import type { GroupResult } from '../groups/group-result';
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
  if (cmd.scale) return killAndLower(ctx, [found], cmd.force === true);
  const { rs, victims } = found;
  const goal = cmd.wipe ? 'Decommissioned' : 'Running';
  for (const inst of victims) {
    killInstance(ctx, rs, inst, 'user', goal);
    if (cmd.wipe) forceExpunge(ctx, rs, inst);
  }
  converge(ctx, rs);
  return { ok: true };
}

/**
 * `wipe`: the instance is forgotten now, its kill sent, not when the kill is answered — as
 * Marathon's TaskKiller (api/TaskKiller.scala:44-52) sets the goal Decommissioned, force-expunges
 * the instance (InstanceUpdater.forceExpunge: condition Killed, then deleted) and answers once it
 * is deleted, which does not wait for the agent. So the 200 of a wipe arrives with the instance
 * already gone from every listing (MesosAppIntegrationTest.scala:522-526), its replacement is
 * queued at once, and a kill the agent never answers holds nothing up. Its tasks are remembered
 * as expunged: one that reports again is killed as unknown (also when the implicit
 * reconciliation finds it), and its end is reported with `unknown_instance_terminated_event`.
 * One already forgotten by the kill (Scheduled, or unreachable) is left as it is.
 *
 * A resident instance is forced out the same way: Marathon 1.11's TaskKiller force-expunges every
 * instance it found, reservation or not (InstanceUpdateOpResolver's ForceExpunge does not look at
 * it), and its reservation and volumes are left on the agent until an offer carries them, when
 * OfferMatcherReconciler destroys and unreserves them as an unknown instance's
 * (core/matcher/reconcile/impl/OfferMatcherReconciler.scala `spurious`). pacer releases them at
 * that offer too (launcher/resident-offers.ts, the unknown branch), and, a step past Marathon,
 * keeps wanting offers of the reservation's role until then (`RunSpecState.releasing`), so a
 * replacement placed before the wiped task ends does not leave it unoffered behind a SUPPRESS.
 * Only a confirmed reservation is waited for: an unconfirmed one (its RESERVE not yet known to
 * have happened) may not exist, and waiting for it would want offers for ever; if it exists it
 * is released as unknown at whichever offer carries it.
 */
function forceExpunge(ctx: CommandContext, rs: RunSpecState, inst: Instance): void {
  if (rs.instances.get(inst.instanceId) !== inst) return;
  const reservation = inst.reservation;
  if (reservation !== undefined && reservation.unconfirmed !== true) {
    (rs.releasing ??= new Map()).set(inst.instanceId, reservation.role);
    ctx.state.demandDirty.add(rs);
  } else {
    rs.releasing?.delete(inst.instanceId);
  }
  if (!isTerminalCondition(inst.condition)) setCondition(ctx, rs, inst, 'Killed');
  expungeInstance(ctx, rs, inst);
}

/**
 * Kill-and-scale across run specs as one deployment (Marathon's `/v2/tasks/delete?scale=true`,
 * fact 58), as {@link killAndLower} does it.
 */
export function killAndScale(ctx: CommandContext, cmd: KillAndScaleCommand): CommandResult {
  const plan: Victims[] = [];
  for (const target of cmd.targets) {
    const found = victimsOf(ctx, target.runSpecId, target.instanceIds);
    if (!('rs' in found)) return found;
    plan.push(found);
  }
  return killAndLower(ctx, plan, cmd.force === true);
}

/**
 * Kills the active victims and lowers each run spec's target by those that count
 * ({@link lowersTarget}), as one scale-only deployment of one new root. The new root is made
 * first: a refused command kills nothing. Unless `force`, a run spec a running deployment holds
 * refuses it (fact 48), and as Marathon does for any change refused so (fact 7), the deployment
 * manager is given the new root to refuse: it reports the refused plan failed
 * (`deployment_failed`) and the change (`group_change_failed`). Nothing to kill, or nothing that
 * lowers a target: nothing changes ({@link nothingToScale}).
 */
function killAndLower(ctx: CommandContext, named: readonly Victims[], force: boolean): CommandResult {
  // Only an active instance has a task to kill (as the API's kill routes pick them): one waiting
  // to relaunch (Scheduled, named by the id of its ended task) is left as it is.
  const plan = named.map(({ rs, victims }) => ({ rs, victims: victims.filter((i) => isActiveCondition(i.condition)) }));
  if (plan.every(({ victims }) => victims.length === 0)) return nothingToScale(ctx);
  const lowered = loweredRoot(ctx, plan);
  if (!lowered.ok) return { ok: false, error: 'invalid', message: lowered.message };
  const lockedBy = force ? [] : [...new Set(plan.flatMap(({ rs }) => ctx.deployments.holding(rs.spec.id)))];
  if (lockedBy.length > 0) {
    if (lowered.root !== ctx.state.root) return deployChange(ctx, lowered, false, WHOLE_ROOT_GROUP_ID);
    return { ok: false, error: 'locked', message: lockedMessage(lockedBy), deployments: lockedBy };
  }
  for (const { rs, victims } of plan) for (const inst of victims) killInstance(ctx, rs, inst, 'user', 'Decommissioned');
  if (lowered.root === ctx.state.root) return nothingToScale(ctx);
  // The victims are already going; the scale-only deployment records the new counts.
  return deployChange(ctx, lowered, true, WHOLE_ROOT_GROUP_ID);
}

/** The root with each run spec's target lowered by its victims that count, at one new version (the root itself when none counts). */
function loweredRoot(ctx: CommandContext, plan: readonly Victims[]): GroupResult {
  let root = ctx.state.root;
  const version = versionAfter(ctx.clock.nowMs(), root.version);
  for (const { rs, victims } of plan) {
    const count = victims.filter(lowersTarget).length;
    if (count === 0) continue;
    const current = findRunSpec(root, rs.spec.id) ?? rs.spec;
    const scaled = withInstances(current, Math.max(0, current.instances - count), version);
    const next = ctx.groups.withRunSpec(root, scaled, scaled.version);
    if (!next.ok) return next;
    root = next.root;
  }
  return { ok: true, root };
}

/**
 * Whether killing this instance with `scale` lowers its run spec's target. Marathon counts a
 * victim that is active and not being killed (`isActive && !isKilling`, TaskKiller, fact 55): a
 * Scheduled instance, waiting to relaunch, does not count. pacer counts one such victim only while
 * its goal is still Running as well, a deliberate step past Marathon: an instance already being
 * killed by pacer (a kill-and-scale or a scale-down, its goal Decommissioned) stays Running on a
 * cluster that sends no TASK_KILLING (the local cluster, a Mesos agent without the capability)
 * until its grace period ends, and a second kill-and-scale of it must not lower `instances` again
 * and bring healthy instances down with it.
 */
function lowersTarget(inst: Instance): boolean {
  return inst.goal === 'Running' && isActiveCondition(inst.condition) && inst.condition !== 'Killing';
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
