import type { InstanceContext } from './instance-context';
import { newInstanceId } from '../kernel/ids';
import { isTerminalCondition } from '../model/condition';
import { Instance } from '../model/instance';
import { InstanceTarget } from '../model/instance-target';
import type { RunSpecState } from '../state/run-spec-state';
import { NO_TASKS, clearPlacement, countRole, countsForFloor, floorFacts, isActive, isPlaced, markChanged, markCreated, setCondition } from './instance-tracker';

/**
 * Brings the run spec's instances still to create to `count`: creates as many now as this input's
 * budget allows (SchedulerOptions.instancesPerInput) and leaves the rest in `toCreate`, for a
 * `continueChanges` timer due at once ({@link continueDeferred}); `count` ≤ 0 cancels what was left.
 * A scale to 100,000 so takes 50 inputs of 2,000 instead of one that blocks the loop for seconds
 * (issue 11 item 4), with API requests and cluster updates handled in between.
 */
export function createInstances(ctx: InstanceContext, rs: RunSpecState, count: number): void {
  const wanted = Math.max(0, count);
  const now = Math.min(wanted, ctx.state.changeBudget);
  rs.toCreate = wanted - now;
  if (now > 0) {
    ctx.state.changeBudget -= now;
    scheduleNewInstances(ctx, rs, now);
  }
  if (rs.toCreate === 0) return;
  ctx.state.demandDirty.add(rs);
  deferChange(ctx, rs);
}

/** Takes one from this input's budget of instances to create or kill; false when it is spent. */
export function takeChangeBudget(ctx: InstanceContext): boolean {
  if (ctx.state.changeBudget <= 0) return false;
  ctx.state.changeBudget--;
  return true;
}

/** Goes on with `rs` in a later input: a `continueChanges` timer due at once ({@link continueDeferred}). */
export function deferChange(ctx: InstanceContext, rs: RunSpecState): void {
  ctx.state.deferred.add(rs);
  ctx.state.deferredTimer ??= ctx.effects.setTimer(ctx.clock.nowMs(), { type: 'timer', timer: { kind: 'continueChanges' } });
}

/**
 * The `continueChanges` timer: each deferred run spec goes on (`goOn`: convergence creates the
 * instances left to create, a delete kills the next ones), in the order they were deferred, within
 * the new input's budget (what is still left waits for the next timer). A run spec forgotten or
 * replaced meanwhile is skipped.
 */
export function continueDeferred(ctx: InstanceContext, goOn: (rs: RunSpecState) => void): void {
  const state = ctx.state;
  state.deferredTimer = undefined;
  const pending = [...state.deferred];
  state.deferred.clear();
  for (const rs of pending) if (state.runSpecs.get(rs.spec.id) === rs) goOn(rs);
}

/**
 * Creates `count` new Scheduled instances of the run spec's current version, queues them, lists
 * them for the input's one write (the write set's created list, state/dirty-instances.ts) and
 * announces them (one `newInstances` effect for the batch: an
 * `instance_changed_event` each). Every field of the record is set here, in one order, so all
 * instances share one object shape (this runs a million times at scale).
 */
export function scheduleNewInstances(ctx: InstanceContext, rs: RunSpecState, count: number): void {
  if (count <= 0) return;
  const nowMs = ctx.clock.nowMs();
  const spec = rs.spec;
  // The new instances in creation order: added below as one batch, then the list their event announces.
  const fresh: Instance[] = [];
  // One target for the batch: its instances run the same definition (model/instance-target.ts).
  const target = InstanceTarget.of({
    runSpecId: spec.id, kind: spec.kind, runSpecVersion: spec.version, configVersion: spec.versionInfo.lastConfigChangeAt, role: spec.role,
  });
  for (let i = 0; i < count; i++) {
    fresh.push(new Instance({
      instanceId: newInstanceId(spec.id, ctx.random),
      incarnation: 0,
      goal: 'Running',
      condition: 'Scheduled',
      conditionSinceMs: nowMs,
      agent: undefined,
      allocation: undefined,
      tasks: NO_TASKS,
      healthy: undefined,
      ready: undefined,
      startedAtMs: undefined,
      unreachableSinceMs: undefined,
      killReason: undefined,
      killRequestedAtMs: undefined,
    }, target));
  }
  // Appended as a batch (kernel/append-all.ts): to the run spec's instances and queue, and to the
  // input's write set (state/dirty-instances.ts), in creation order.
  rs.instances.addAll(fresh);
  rs.scheduled.pushAll(fresh);
  markCreated(ctx, fresh);
  countRole(ctx, rs, spec.role, count);
  rs.activeCount += count;
  ctx.state.changed.add(spec.id);
  ctx.state.demandDirty.add(rs);
  // `fresh` is the effect's own list from here on: nothing changes it.
  if (ctx.effects.eventsWanted) ctx.effects.newInstances(fresh, spec.version, nowMs);
}

/**
 * Puts a terminal instance whose goal is still Running back in the queue: same instance id, new
 * incarnation on its next launch, the run spec's current version. It takes the run spec's current
 * role unless the run spec is resident: a resident instance keeps the role of its reservations
 * (fact 114, spec section 3: "existing instances keep the old role and their reservations").
 */
export function rescheduleInstance(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  clearPlacement(ctx, rs, inst);
  setCondition(ctx, rs, inst, 'Scheduled');
  rs.scheduled.push(inst);
  ctx.state.demandDirty.add(rs);
}

/**
 * An instance that is done (not to run again): forgotten at once, unless it is a resident
 * instance with a reservation — that one stays (goal not Running) until the offer of its
 * reservation lets the core DESTROY its volumes and UNRESERVE it (launcher/resident-offers.ts);
 * only then is it forgotten, as Marathon does.
 */
export function retireInstance(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  if (inst.reservation === undefined) {
    expungeInstance(ctx, rs, inst);
    return;
  }
  if (inst.condition === 'Scheduled') removeScheduled(ctx, rs, inst);
  (rs.releasing ??= new Map()).set(inst.instanceId, inst.reservation.role);
  ctx.state.demandDirty.add(rs);
  markChanged(ctx, inst);
}

/**
 * Forgets an instance. Its task ids are remembered as expunged so that a task that comes back
 * later is recognised, killed and reported with `unknown_instance_terminated_event`.
 */
export function expungeInstance(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  if (isPlaced(inst) && inst.agent !== undefined) rs.counts.remove(inst.agent);
  if (isActive(inst)) rs.activeCount--;
  if (inst.condition === 'Running') rs.runningCount--;
  if (countsForFloor(inst)) rs.floorCounted--;
  if (floorFacts(inst) !== 0) rs.floorVersion++;
  for (const task of inst.tasks) {
    if (task.state === undefined || !isTerminalCondition(task.condition)) rememberExpunged(ctx, task.taskId, inst);
  }
  ctx.health.forget(ctx, inst);
  if (inst.condition === 'Scheduled') removeScheduled(ctx, rs, inst);
  ctx.state.changed.add(inst.runSpecId);
  ctx.state.removeInstance(rs, inst);
  countRole(ctx, rs, inst.role, -1);
  ctx.effects.deleteInstance(inst.instanceId);
}

/**
 * Takes a Scheduled instance out of the launch queue. A retired resident instance (in `releasing`:
 * Scheduled, but out of the queue since {@link retireInstance}, or never queued when a restart
 * adopted it so) is left alone: taking it out again, when it was killed again or expunged at its
 * release, made the queue's count -1, and the matcher failed the core at the next offer.
 */
export function removeScheduled(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  if (rs.releasing?.has(inst.instanceId) === true) return;
  rs.scheduled.remove(inst);
  ctx.state.demandDirty.add(rs);
}

/** How many expunged tasks are remembered; the oldest are forgotten first (a bound, not a leak). */
export const EXPUNGED_TASKS_MAX = 100_000;

function rememberExpunged(ctx: InstanceContext, taskId: string, inst: Instance): void {
  const remembered = ctx.state.expungedTasks;
  remembered.set(taskId, { instanceId: inst.instanceId, runSpecId: inst.runSpecId });
  if (remembered.size > EXPUNGED_TASKS_MAX) remembered.delete(remembered.keys().next().value as string);
}
