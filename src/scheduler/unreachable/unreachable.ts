import type { InstanceContext } from '../instances/instance-context';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { expungeInstance } from '../instances/instance-lifecycle';
import { markUnreachable, setCondition, unreachableSince } from '../instances/instance-tracker';
import { converge } from '../instances/converge';
import { finishDeleteIfDone } from '../instances/finish-delete';
import { cannotAnswerKill } from '../kill/kill-instance';

/**
 * Unreachable strategy. When an instance becomes Unreachable:
 * - after `inactiveAfterMs` it becomes UnreachableInactive: it no longer fills the target, so
 *   convergence launches a replacement;
 * - after `expungeAfterMs` it is expunged (forgotten); should its task come back it is unknown,
 *   killed, and reported with `unknown_instance_terminated_event`.
 * Equal values expunge at once (Marathon 1.9.100), so the app default {0, 0} replaces and expunges
 * immediately. `disabled` (resident run specs) waits forever. An instance already asked to be
 * killed (not to run again) and not resident is instead forgotten at once, by the kill rule
 * ({@link cannotAnswerKill}).
 * Marathon checks these deadlines on its reconciliation timer; pacer sets exact timers. Both count
 * from when the cluster marked the agent unreachable when the update says (`reportedSinceMs`,
 * Mesos's `unreachable_time`; never later than now), else from now. An instance whose inactive
 * deadline has passed already as it becomes unreachable took UnreachableInactive at once
 * ({@link unreachableConditionOf}); here it is replaced (or expunged).
 */
export function onBecameUnreachable(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reportedSinceMs?: number): void {
  unreachableFrom(ctx, rs, inst, reportedSinceMs, 0);
}

/**
 * An instance the core recovered unreachable at a start (recover-state.ts): as
 * {@link onBecameUnreachable}, but an expunge deadline that passed while no scheduler ran waits
 * until `taskLostExpungeInitialDelayMs` after the start, as Marathon's expunge job starts only
 * after `--task_lost_expunge_initial_delay`: the reconciliation asks about its task first, and
 * a task whose agent came back meanwhile reports running and keeps its instance (expunged at
 * once, its task was killed as unknown when it reported: swarm seed 20500). Its inactive
 * deadline is not deferred: a replacement waits for nothing, and one made in vain is killed as
 * surplus when the instance is back.
 */
export function onRecoveredUnreachable(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  unreachableFrom(ctx, rs, inst, undefined, ctx.clock.nowMs() + ctx.options.taskLostExpungeInitialDelayMs);
}

function unreachableFrom(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reportedSinceMs: number | undefined, expungeNotBeforeMs: number): void {
  if (cannotAnswerKill(rs.spec, inst)) {
    // Asked to be killed, now unable to answer: forgotten by the kill rule, as a restarted core
    // re-applying the kill would forget it. A delete may have been waiting for it only.
    expungeInstance(ctx, rs, inst);
    finishDeleteIfDone(ctx, rs);
    if (!rs.deleting) converge(ctx, rs);
    return;
  }
  const nowMs = ctx.clock.nowMs();
  const since = markUnreachable(ctx, inst, reportedSinceMs);
  const policy = rs.spec.unreachable;
  if (policy.kind === 'disabled') return;
  const deadlineMs = since + policy.expungeAfterMs;
  const expungeAtMs = deadlineMs > nowMs ? deadlineMs : Math.max(deadlineMs, expungeNotBeforeMs);
  if (policy.expungeAfterMs <= policy.inactiveAfterMs && expungeAtMs <= nowMs) {
    expire(ctx, rs, inst);
    return;
  }
  if (since + policy.inactiveAfterMs <= nowMs) markInactive(ctx, rs, inst);
  else ctx.effects.setTimer(since + policy.inactiveAfterMs, timer('unreachableInactive', inst));
  ctx.effects.setTimer(expungeAtMs, timer('unreachableExpunge', inst));
}

/**
 * The condition an instance takes when its tasks make it unreachable (the status handlers'
 * `condition`, before {@link onBecameUnreachable} runs): UnreachableInactive when it was already,
 * or when it becomes unreachable after its inactive deadline (`inactiveAfterMs` counted from
 * `reportedSinceMs` as above: `{0, 0}`, or an update that arrives late), else Unreachable. So such
 * an instance gets one `instance_changed_event`, UnreachableInactive, as in Marathon 1.11, where
 * `Instance.conditionFromTasks` gives the instance UnreachableInactive as soon as a task's
 * unreachable time is `inactiveAfter` old (`Task.isUnreachableExpired`; `InstanceUpdater` then
 * expunges it with that one event when `expungeAfter` has passed too). pacer reported Unreachable,
 * then UnreachableInactive, in the same instant.
 */
export function unreachableConditionOf(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reportedSinceMs?: number): 'Unreachable' | 'UnreachableInactive' {
  if (inst.condition === 'UnreachableInactive') return 'UnreachableInactive';
  if (inst.condition === 'Unreachable') return 'Unreachable'; // its inactive timer decides
  const policy = rs.spec.unreachable;
  if (policy.kind === 'disabled') return 'Unreachable';
  const nowMs = ctx.clock.nowMs();
  return unreachableSince(ctx, inst, reportedSinceMs) + policy.inactiveAfterMs <= nowMs ? 'UnreachableInactive' : 'Unreachable';
}

/** The inactive deadline passed: replace the instance if it is still unreachable. */
export function onInactiveTimer(ctx: InstanceContext, instanceId: string, incarnation: number): void {
  const found = stillUnreachable(ctx, instanceId, incarnation);
  if (found === undefined || found.inst.condition !== 'Unreachable') return;
  if (deadlinePassed(ctx, found, 'inactiveAfterMs')) markInactive(ctx, found.rs, found.inst);
}

/** The expunge deadline passed: forget the instance if it is still unreachable. */
export function onExpungeTimer(ctx: InstanceContext, instanceId: string, incarnation: number): void {
  const found = stillUnreachable(ctx, instanceId, incarnation);
  if (found !== undefined && deadlinePassed(ctx, found, 'expungeAfterMs')) expire(ctx, found.rs, found.inst);
}

/** Guards against a timer of an earlier unreachable episode of the same incarnation. */
function deadlinePassed(ctx: InstanceContext, found: { rs: RunSpecState; inst: Instance }, which: 'inactiveAfterMs' | 'expungeAfterMs'): boolean {
  const policy = found.rs.spec.unreachable;
  const since = found.inst.unreachableSinceMs;
  return policy.kind === 'enabled' && since !== undefined && since + policy[which] <= ctx.clock.nowMs();
}

function markInactive(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  setCondition(ctx, rs, inst, 'UnreachableInactive');
  converge(ctx, rs);
}

function expire(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  if (inst.condition === 'Unreachable') setCondition(ctx, rs, inst, 'UnreachableInactive');
  expungeInstance(ctx, rs, inst);
  // A delete may have been waiting for this instance only.
  finishDeleteIfDone(ctx, rs);
  converge(ctx, rs);
}

function stillUnreachable(ctx: InstanceContext, instanceId: string, incarnation: number): { rs: RunSpecState; inst: Instance } | undefined {
  const inst = ctx.state.instance(instanceId);
  if (inst === undefined || inst.incarnation !== incarnation) return undefined;
  if (inst.condition !== 'Unreachable' && inst.condition !== 'UnreachableInactive') return undefined;
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  return rs === undefined ? undefined : { rs, inst };
}

function timer(kind: 'unreachableInactive' | 'unreachableExpunge', inst: Instance) {
  return { type: 'timer' as const, timer: { kind, instanceId: inst.instanceId, incarnation: inst.incarnation } };
}
