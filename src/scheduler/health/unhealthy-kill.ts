import type { InstanceContext } from '../instances/instance-context';
import { unhealthyKillDeferralEndedEvent, unhealthyKillDeferredEvent, unhealthyKillEvents } from '../events/unhealthy-kill-events';
import type { DeferralOutcome } from '../model/events';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { killInstance } from '../kill/kill-instance';
import { recordTaskFailure } from '../instances/record-task-failure';
import { countsForFloor, isKillable, markProven, setKillReason } from '../instances/instance-tracker';
import type { DeferredKill } from './health-tracker';
import { floorCapacity, killsWithinFloor, unhealthyKillFloor, type FloorSource } from './unhealthy-kill-floor';

/**
 * Kills an instance for failing health checks and announces it. Spec section 6 lists both
 * `unhealthy_task_kill_event` and `unhealthy_instance_kill_event`; Marathon 1.11 emits only the
 * latter. We emit both (the spec wins where it speaks) so consumers of either keep working.
 * The instance keeps goal Running: it is replaced, and the replacement is subject to backoff. The
 * kill becomes the run spec's `lastTaskFailure` (state TASK_KILLED, the reason as message).
 *
 * Called directly only for kills the agent already made (agent-run checks: `alreadyKilled`); the
 * scheduler's own kills go through {@link requestUnhealthyKill} and the floor.
 */
export function killUnhealthy(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reason: string, alreadyKilled: boolean): void {
  const [taskKill, instanceKill] = unhealthyKillEvents(inst, reason, ctx.clock.nowMs());
  recordTaskFailure(ctx, rs, inst, taskKill.taskId, 'TASK_KILLED', reason, ctx.clock.nowMs());
  ctx.effects.event(taskKill);
  ctx.effects.event(instanceKill);
  if (alreadyKilled) setKillReason(ctx, inst, 'unhealthy');
  else killInstance(ctx, rs, inst, 'unhealthy', 'Running');
}

/**
 * A scheduler-run check of `inst` reached `maxConsecutiveFailures`: the kill is due. It goes
 * ahead unless it would leave the app below its floor (kill-storm protection, issue 18); then
 * it waits — the instance keeps running, its kill held (`pacer_unhealthy_kill_deferred_event`,
 * `heldUnhealthyKills` of `GET /v2/queue`, the UI's queue page) — and is looked at again at its
 * next failed check, whenever an instance of the app turns healthy, and as other kills of the app
 * fall due; it is dropped if the instance passes its checks again ({@link onInstanceHealthy}).
 * Every due kill of the app is decided together, in the order they fell due, by
 * `killsWithinFloor` (unhealthy-kill-floor.ts, the rule): a pass over the app's held kills only
 * when something they depend on changed (`settleDueKills`); the count of instances that count for
 * the floor is kept per app by the instance tracker (`floorCounted`).
 */
export function requestUnhealthyKill(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reason: string): void {
  let due = ctx.health.deferredKills.get(rs.spec.id);
  if (due === undefined) {
    due = new Map();
    ctx.health.deferredKills.set(rs.spec.id, due);
  }
  const known = due.get(inst.instanceId);
  if (known !== undefined) {
    known.reason = reason;
    settleDueKills(ctx, rs, undefined);
    return;
  }
  due.set(inst.instanceId, { reason, sinceMs: ctx.clock.nowMs(), announced: false });
  settleDueKills(ctx, rs, inst.instanceId);
}

/**
 * `inst` turned healthy: from now on it counts for its app's floor (until it ends), a kill held
 * back for it is dropped (`recovered`), and the app's other held-back kills are looked at again
 * (a replacement that proved itself raises the count).
 */
export function onInstanceHealthy(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  markProven(ctx, inst);
  const due = ctx.health.deferredKills.get(rs.spec.id);
  if (due === undefined) return;
  const kill = due.get(inst.instanceId);
  if (kill !== undefined) endDeferral(ctx, rs.spec.id, due, inst, kill, 'recovered');
  if (due.size > 0) settleDueKills(ctx, rs, undefined);
}

/** An app's floor and count right now, for decisions, events and the queue (`heldUnhealthyKills`). */
export interface FloorState {
  readonly instances: number;
  readonly capacity: number;
  readonly source: FloorSource;
  readonly floor: number;
  readonly counted: number;
}

/** The floor of `rs` (`--unhealthy_kill_floor` from the core's options) and how many of its instances count now (`floorCounted`). */
export function floorState(ctx: InstanceContext, rs: RunSpecState): FloorState {
  const spec = rs.spec;
  const { capacity, source } = floorCapacity(spec, ctx.options.unhealthyKillFloor);
  return { instances: spec.instances, capacity, source, floor: unhealthyKillFloor(spec.instances, capacity), counted: rs.floorCounted };
}

/**
 * Decides every due kill of the app at once, in the order they fell due (first due, first
 * killed; the map keeps insertion order): the floor lets some go ahead, the rest wait, announced once.
 *
 * A kill the last settlement held stays held while none of the app's instances started or
 * stopped counting for the floor or being killable and the floor is the same (`floorVersion`,
 * kept by the instance tracker): it counted when it was held, the count was at the floor then
 * and is the same now, so walking it again changes nothing, and the kills due since are decided
 * after it with that count. So then only the kill just due (`added`) is walked: in a storm the held kills of an app of
 * 100,000 instances were walked, and each looked up, at every failed check (half of a simulated
 * storm's time).
 */
function settleDueKills(ctx: InstanceContext, rs: RunSpecState, added: string | undefined): void {
  const appId = rs.spec.id;
  const due = ctx.health.deferredKills.get(appId);
  if (due === undefined) return;
  const state = floorState(ctx, rs);
  const settled = ctx.health.settledKills.get(appId);
  const onlyAdded = settled !== undefined && settled.floorVersion === rs.floorVersion && settled.floor === state.floor;
  const ids = !onlyAdded ? [...due.keys()] : added === undefined ? [] : [added];
  const ordered = ids.filter((id) => due.has(id)).map((id) => rs.instances.get(id)).filter((i): i is Instance => i !== undefined && isKillable(i));
  decideDueKills(ctx, rs, due, ordered, state);
  ctx.health.settledKills.set(appId, { floorVersion: rs.floorVersion, floor: state.floor });
}

/** The floor's verdicts on `ordered` (due kills of killable instances, in the order they fell due): kills go ahead or are held, announced once. */
function decideDueKills(ctx: InstanceContext, rs: RunSpecState, due: Map<string, DeferredKill>, ordered: readonly Instance[], state: FloorState): void {
  if (ordered.length === 0) return;
  const counts = ordered.map((i) => countsForFloor(i));
  const verdicts = killsWithinFloor(state.counted, state.floor, counts);
  // The count after this settlement's kills, as the held kills' events report it.
  const counted = state.counted - counts.filter((c, k) => c && verdicts[k]).length;
  ordered.forEach((inst, k) => {
    const kill = due.get(inst.instanceId) as DeferredKill;
    if (verdicts[k]) {
      if (kill.announced) endDeferral(ctx, rs.spec.id, due, inst, kill, 'killed');
      else forgetDeferral(ctx, rs.spec.id, due, inst);
      killUnhealthy(ctx, rs, inst, kill.reason, false);
    } else if (!kill.announced) {
      kill.announced = true;
      ctx.effects.event(unhealthyKillDeferredEvent(inst, kill.reason, { ...state, counted }, ctx.clock.nowMs()));
    }
  });
}

function endDeferral(ctx: InstanceContext, runSpecId: string, due: Map<string, DeferredKill>, inst: Instance, kill: DeferredKill, outcome: DeferralOutcome): void {
  forgetDeferral(ctx, runSpecId, due, inst);
  if (kill.announced) ctx.effects.event(unhealthyKillDeferralEndedEvent(inst, outcome, ctx.clock.nowMs()));
}

function forgetDeferral(ctx: InstanceContext, runSpecId: string, due: Map<string, DeferredKill>, inst: Instance): void {
  due.delete(inst.instanceId);
  if (due.size === 0) ctx.health.forgetDueKills(runSpecId);
}
