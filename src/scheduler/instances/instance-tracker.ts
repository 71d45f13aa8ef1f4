import type { InstanceContext } from './instance-context';
import { assert } from '../kernel/assert';
import { instanceChangedEvent } from '../events/instance-events';
import type { AgentInfo } from '../model/agent';
import { conditionOfTaskState, isTerminalCondition, type Condition } from '../model/condition';
import type { TaskStatus } from '../model/inputs';
import { checkResultOf, sameCheckResult, type CheckResult } from '../model/checks';
import type { Goal, Instance, InstanceAtEvent, InstanceReservation, KillReason, Task } from '../model/instance';
import type { OfferedPool } from '../model/offer';
import type { ScalarResources } from '../model/resources';
import type { RunSpec } from '../model/run-spec';
import type { RunSpecState } from '../state/run-spec-state';

/*
 * The instance tracker: the one owner of instance mutation (issue 12, problem 3). Every write to a
 * field of an Instance or of its Tasks is one of the operations below; no other module of the core,
 * the store, the runtime or HA assigns an instance's fields (the `pacer/instance-writes` lint rule,
 * eslint.config.mjs, proven by test/unit/lint/instance-writes.test.ts); the API, the drivers and the
 * simulator only read the instances the facade hands out. Each operation keeps what depends on the field right
 * (the run spec's active, running, role and placement counters), marks the instance changed for
 * this input (the dirty set, written once: {@link flushInstances}) and its run spec changed (the
 * deployments look at those), and emits `instance_changed_event` where Marathon does. What reacts
 * to a change of an instance's tasks is the ordered list of status handlers
 * (instances/status-handlers.ts) that {@link applyTaskStatus}'s caller runs once per update.
 */

/**
 * The instance's record is to be written with this input (a new instance, or one whose record
 * changed outside its own fields, such as a resident instance put in the release set).
 */
export function markChanged(ctx: InstanceContext, inst: Instance): void {
  ctx.state.dirty.add(inst);
}

/**
 * New instances, in creation order, are to be written with this input: first in its write, in
 * this order (the order a store lists them at recovery). One list entry each, no Set entry.
 */
export function markCreated(ctx: InstanceContext, instances: readonly Instance[]): void {
  ctx.state.dirty.addCreated(instances);
}

/**
 * An instance fills its run spec's target while its goal is Running and it is neither terminal nor
 * UnreachableInactive (an inactive unreachable instance has been replaced).
 */
export function isActive(inst: Instance): boolean {
  return inst.goal === 'Running' && !isTerminalCondition(inst.condition) && inst.condition !== 'UnreachableInactive';
}

/** An instance occupies a placement (and counts for constraints) while placed and not terminal. */
export function isPlaced(inst: Instance): boolean {
  return inst.agent !== undefined && !isTerminalCondition(inst.condition);
}

/**
 * Whether `inst` counts towards its app's kill-storm floor (health/unhealthy-kill.ts): it is
 * Running with goal Running, no kill of it is under way, and it has been healthy since it last
 * started (`proven`: stored with it, so a core that takes over counts the same instances).
 * Healthy now or not: an instance that served and fails together with its siblings is what the
 * floor keeps. One that never passed its checks since it started (a replacement in its grace
 * period, or failing since launch) has shown nothing to keep, and killing it cannot lower the
 * count. The run spec's `floorCounted` is how many do; the writes below keep it ({@link keepFloorCount}).
 */
export function countsForFloor(inst: Instance): boolean {
  return inst.condition === 'Running' && inst.goal === 'Running' && inst.killReason === undefined
    && inst.killRequestedAtMs === undefined && inst.proven === true;
}

/**
 * Only a running instance nobody is killing yet can be killed for its health (Marathon kills no
 * unreachable instance: #3942); health/unhealthy-kill.ts decides which of those go.
 */
export function isKillable(inst: Instance): boolean {
  return inst.condition === 'Running' && inst.killReason === undefined && inst.killRequestedAtMs === undefined;
}

/** What the kill-storm floor reads of an instance, as bits: 1 it counts ({@link countsForFloor}), 2 it can be killed ({@link isKillable}). */
export function floorFacts(inst: Instance): number {
  return (countsForFloor(inst) ? 1 : 0) | (isKillable(inst) ? 2 : 0);
}

/**
 * After a write that may change {@link floorFacts} of `inst` (`before`: their value before the
 * write): the run spec that holds it counts it or not (`floorCounted`) and, when either fact
 * changed, moves its `floorVersion` (the floor's held kills are looked at again only then:
 * health/unhealthy-kill.ts). `rs` when the caller has it; else {@link ownerOf}. Costs nothing
 * unless a fact changed.
 */
function keepFloorCount(ctx: InstanceContext, rs: RunSpecState | undefined, inst: Instance, before: number): void {
  const after = floorFacts(inst);
  if (after === before) return;
  // A caller's `rs` holds the instance (its other counters rely on that too): no look-up on the
  // status path, where each instance going Running changes its facts.
  const owner = rs ?? ownerOf(ctx, inst);
  if (owner === undefined) return;
  owner.floorCounted += (after & 1) - (before & 1);
  owner.floorVersion++;
}

/** The run spec of `inst`'s id, if it holds this very instance (after a delete and a new app of the same id, the id names another). */
function ownerOf(ctx: InstanceContext, inst: Instance): RunSpecState | undefined {
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  return rs !== undefined && rs.instances.get(inst.instanceId) === inst ? rs : undefined;
}

/**
 * The one way to change an instance's condition: keeps `activeCount` and the placement counters
 * right and emits `instance_changed_event`.
 */
export function setCondition(ctx: InstanceContext, rs: RunSpecState | undefined, inst: Instance, condition: Condition): void {
  if (inst.condition === condition) return;
  const wasActive = isActive(inst);
  const wasPlaced = isPlaced(inst);
  const wasRunning = inst.condition === 'Running';
  const factsBefore = floorFacts(inst);
  // An app task not made yet was launched at the condition's time, which is about to change.
  inst.keepTasks();
  inst.condition = condition;
  inst.conditionSinceMs = ctx.clock.nowMs();
  ctx.state.changed.add(inst.runSpecId);
  ctx.state.dirty.add(inst);
  if (rs !== undefined) {
    rs.activeCount += (isActive(inst) ? 1 : 0) - (wasActive ? 1 : 0);
    rs.runningCount += (condition === 'Running' ? 1 : 0) - (wasRunning ? 1 : 0);
    if (wasPlaced && !isPlaced(inst) && inst.agent !== undefined) rs.counts.remove(inst.agent);
  }
  keepFloorCount(ctx, rs, inst, factsBefore);
  ctx.effects.event(instanceChangedEvent(inst, inst.conditionSinceMs), atEvent(inst));
}

/**
 * The one way to change an instance's goal: keeps `activeCount` right and emits
 * `instance_changed_event` (Marathon sends it when the condition or the goal changes, fact 107).
 */
export function setGoal(ctx: InstanceContext, rs: RunSpecState, inst: Instance, goal: Goal): void {
  if (inst.goal === goal) return;
  const wasActive = isActive(inst);
  const factsBefore = floorFacts(inst);
  inst.goal = goal;
  ctx.state.changed.add(inst.runSpecId);
  ctx.state.dirty.add(inst);
  rs.activeCount += (isActive(inst) ? 1 : 0) - (wasActive ? 1 : 0);
  keepFloorCount(ctx, rs, inst, factsBefore);
  ctx.effects.event(instanceChangedEvent(inst, ctx.clock.nowMs()), atEvent(inst));
}

/**
 * The instance's goal and kill reason now, delivered with the event about this change. Without a
 * kill reason (nearly every change: each placement is one) it is one of three shared, frozen
 * objects, not a new one per event.
 */
export function atEvent(inst: Instance): InstanceAtEvent {
  return inst.killReason === undefined ? AT_EVENT_NO_KILL[inst.goal] : { goal: inst.goal, killReason: inst.killReason };
}

const AT_EVENT_NO_KILL: Readonly<Record<Goal, InstanceAtEvent>> = {
  Running: Object.freeze({ goal: 'Running', killReason: undefined }),
  Stopped: Object.freeze({ goal: 'Stopped', killReason: undefined }),
  Decommissioned: Object.freeze({ goal: 'Decommissioned', killReason: undefined }),
};

/** A new instance as its first event describes it: to run, no kill (what {@link atEvent} gives for it). */
export const NEW_INSTANCE_AT_EVENT: InstanceAtEvent = AT_EVENT_NO_KILL.Running;

/** The one way to change an instance's role: keeps the run spec's role counts right. */
export function setInstanceRole(ctx: InstanceContext, rs: RunSpecState, inst: Instance, role: string): void {
  if (inst.role === role) return;
  countRole(ctx, rs, inst.role, -1);
  inst.role = role;
  countRole(ctx, rs, role, 1);
  ctx.state.dirty.add(inst);
}

/**
 * Counts `delta` instances of `rs` under `role`. When a role new to the framework gets its first
 * instance, or a role loses its last one, the framework's roles may change: they are recomputed
 * after the input (O(1) here).
 */
export function countRole(ctx: InstanceContext, rs: RunSpecState, role: string, delta: number): void {
  const before = rs.instanceRoles.get(role) ?? 0;
  const after = before + delta;
  if (after > 0) rs.instanceRoles.set(role, after);
  else rs.instanceRoles.delete(role);
  // A role that gets its first instance here changes the framework's roles only when it is new to
  // them (recomputing reads every run spec); one that loses its last instance here may be gone,
  // unless it is the default role, which is always in the set (so deleting an app of the default
  // role, or scaling it to 0, walks no run spec).
  const gained = before === 0 && after > 0;
  const lost = before > 0 && after <= 0 && role !== ctx.options.defaultRole;
  if ((gained && !ctx.state.frameworkRoles.includes(role)) || lost) ctx.state.rolesDirty = true;
}

/**
 * The instance will run `spec` (the run spec's current definition) when it next launches: its
 * version, config generation and — unless it holds a reservation of a resident run spec, whose
 * role it keeps (fact 114, spec section 3) — its role. One without a reservation yet (waiting
 * for its first launch, perhaps from before the run spec became resident) takes the spec's role:
 * keeping the old one made its first launch reserve for that role (`*`, which no master allows).
 */
export function retarget(ctx: InstanceContext, rs: RunSpecState, inst: Instance, spec: RunSpec): void {
  inst.runSpecVersion = spec.version;
  inst.configVersion = spec.versionInfo.lastConfigChangeAt;
  if (!spec.resident || inst.reservation === undefined) setInstanceRole(ctx, rs, inst, spec.role);
  ctx.state.dirty.add(inst);
}

/** The shared empty task list of instances that are not launched (never mutated: tasks are replaced). */
export const NO_TASKS: Task[] = [];

/**
 * Takes a terminal instance's placement away before it is queued again (same instance id; a new
 * incarnation on its next launch): no agent, tasks, health, readiness, start, unreachable time
 * or kill; the run spec's current definition ({@link retarget}).
 */
export function clearPlacement(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  const factsBefore = floorFacts(inst);
  inst.agent = undefined;
  inst.allocation = undefined;
  inst.tasks = NO_TASKS;
  inst.healthy = undefined;
  inst.ready = undefined;
  inst.proven = undefined;
  inst.startedAtMs = undefined;
  inst.unreachableSinceMs = undefined;
  inst.killReason = undefined;
  inst.killRequestedAtMs = undefined;
  keepFloorCount(ctx, rs, inst, factsBefore);
  retarget(ctx, rs, inst, rs.spec);
}

/**
 * Binds a Scheduled instance to an agent (the matcher's Commit step, launcher/place-instance.ts):
 * the next incarnation, on `agent`, with its new tasks (a pod's), or the facts of an app's one
 * task, which the instance makes when its tasks are first read (model/instance.ts); the run spec's current definition, counted
 * for constraints, then Provisioned. `allocation` is what was taken from which pool of the offer,
 * kept for resident run specs only. Written before the ACCEPT that launches it
 * ({@link flushInstances}).
 *
 * The common case, a Scheduled instance, is {@link setCondition}'s work without its general
 * bookkeeping, which cannot change anything here: neither Scheduled nor Provisioned is terminal,
 * UnreachableInactive or Running, so whether the instance is active depends on its (unchanged)
 * goal alone, it counts as placed on both sides once its agent is set, and the run spec's
 * active, running and placement counters stay as they are. A million placements go through
 * here, so it is kept to the writes, the dirty and changed marks, and the event. Any other
 * condition (a resident instance's relaunch) goes through {@link setCondition}.
 */
export function place(
  ctx: InstanceContext, rs: RunSpecState, inst: Instance, incarnation: number, agent: AgentInfo,
  allocation: readonly OfferedPool[] | undefined, tasks: Task[] | AppLaunchFacts,
): void {
  const spec = rs.spec;
  inst.incarnation = incarnation;
  inst.agent = agent;
  // The fields that usually hold their value already are compared first: a store of a reference
  // into an old instance costs V8 a write barrier (a look at the instance's page), a read does not.
  if (inst.allocation !== allocation) inst.allocation = allocation;
  // The target is compared only when it is not the one last found right for this definition
  // (RunSpecState.placedTarget): the instances of a scale-up share one, and reading its fields
  // (and the definition's version info) was a cache miss or two per placement at a million.
  if (inst.sharedTarget !== rs.placedTarget || rs.placedSpec !== spec) {
    if (inst.runSpecVersion !== spec.version) inst.runSpecVersion = spec.version;
    const configVersion = spec.versionInfo.lastConfigChangeAt;
    if (inst.configVersion !== configVersion) inst.configVersion = configVersion;
    if (!spec.resident && inst.role !== spec.role) setInstanceRole(ctx, rs, inst, spec.role);
    rs.placedTarget = inst.sharedTarget;
    rs.placedSpec = spec;
  }
  rs.counts.add(agent);
  const nowMs = ctx.clock.nowMs();
  if (inst.condition !== 'Scheduled') {
    // Its condition's time may not change (setCondition leaves it when the condition stays): the
    // app task is made now, with this launch's time, rather than from that time later.
    if (Array.isArray(tasks)) inst.tasks = tasks;
    else inst.launchAppAt(tasks.hostPorts, appResources(spec), nowMs);
    setCondition(ctx, rs, inst, 'Provisioned');
    return;
  }
  inst.condition = 'Provisioned';
  inst.conditionSinceMs = nowMs;
  // After the condition's time, which is the app task's launch time until the task is made.
  if (Array.isArray(tasks)) inst.tasks = tasks;
  else inst.launchApp(tasks.hostPorts, appResources(spec));
  const state = ctx.state;
  state.noteChanged(rs);
  // Placed out of the queue: not placed before since the last flush (see DirtyInstances.addPlaced).
  state.dirty.addPlaced(inst);
  ctx.effects.event(instanceChangedEvent(inst, nowMs), atEvent(inst));
}

/**
 * An app task's launch as {@link place} takes it: its host ports (the matcher's Reservation is
 * one, so a placement makes no object for them); its resources are the app's own. The Task is made
 * from these when first read.
 */
export interface AppLaunchFacts {
  readonly hostPorts: readonly number[];
}

/** The resources of an app's task: the app's own (only an app's launch gives {@link place} facts rather than tasks). */
function appResources(spec: RunSpec): ScalarResources {
  if (spec.kind !== 'app') assert(false, `${spec.id}: a pod's instance launched as an app's`);
  return spec.resources;
}

/** Records the instance's reservation (resident run specs), or forgets it (`undefined`). */
export function setReservation(ctx: InstanceContext, inst: Instance, reservation: InstanceReservation | undefined): void {
  inst.reservation = reservation;
  ctx.state.dirty.add(inst);
}

/** Why the instance is killed; the first reason given stays. */
export function setKillReason(ctx: InstanceContext, inst: Instance, reason: KillReason): void {
  if (inst.killReason !== undefined) return;
  const factsBefore = floorFacts(inst);
  inst.killReason = reason;
  ctx.state.dirty.add(inst);
  keepFloorCount(ctx, undefined, inst, factsBefore);
}

/** Kills were sent for the instance's tasks now (the kill retry and recovery read it). */
export function markKillRequested(ctx: InstanceContext, inst: Instance): void {
  const factsBefore = floorFacts(inst);
  inst.killRequestedAtMs = ctx.clock.nowMs();
  ctx.state.dirty.add(inst);
  keepFloorCount(ctx, undefined, inst, factsBefore);
}

/** The instance's health (all checks passing; undefined = unknown) changed. */
export function setHealthy(ctx: InstanceContext, inst: Instance, healthy: boolean | undefined): void {
  inst.healthy = healthy;
  ctx.state.dirty.add(inst);
  ctx.state.changed.add(inst.runSpecId);
}

/**
 * The instance turned healthy in this incarnation: it counts for its app's kill-storm floor from
 * now on while it runs (health/unhealthy-kill.ts). Written with it, so a core that takes over
 * knows (`proven`, store format 9); cleared when it is queued again ({@link clearPlacement}).
 */
export function markProven(ctx: InstanceContext, inst: Instance): void {
  if (inst.proven === true) return;
  const factsBefore = floorFacts(inst);
  inst.proven = true;
  ctx.state.dirty.add(inst);
  keepFloorCount(ctx, undefined, inst, factsBefore);
}

/** A readiness check of this incarnation passed. */
export function markReady(ctx: InstanceContext, inst: Instance): void {
  inst.ready = true;
  ctx.state.dirty.add(inst);
  ctx.state.changed.add(inst.runSpecId);
}

/** First seen Running in this incarnation (kept when already set). */
export function markStarted(ctx: InstanceContext, inst: Instance): void {
  if (inst.startedAtMs !== undefined) return;
  inst.startedAtMs = ctx.clock.nowMs();
  ctx.state.dirty.add(inst);
}

/**
 * Unreachable since `reportedSinceMs` (when the cluster says it marked the agent unreachable; a
 * time after now counts as now) or else since now, unless already counting from an earlier moment
 * of this episode; returns since when.
 */
export function markUnreachable(ctx: InstanceContext, inst: Instance, reportedSinceMs?: number): number {
  if (inst.unreachableSinceMs !== undefined) return inst.unreachableSinceMs;
  inst.unreachableSinceMs = unreachableSince(ctx, inst, reportedSinceMs);
  ctx.state.dirty.add(inst);
  return inst.unreachableSinceMs;
}

/** Since when {@link markUnreachable} counts `inst` unreachable (or would, were it marked now); changes nothing. */
export function unreachableSince(ctx: InstanceContext, inst: Instance, reportedSinceMs?: number): number {
  if (inst.unreachableSinceMs !== undefined) return inst.unreachableSinceMs;
  const nowMs = ctx.clock.nowMs();
  return reportedSinceMs === undefined ? nowMs : Math.min(nowMs, reportedSinceMs);
}

/** Reachable again: the unreachable episode is over. */
export function clearUnreachable(ctx: InstanceContext, inst: Instance): void {
  inst.unreachableSinceMs = undefined;
  ctx.state.dirty.add(inst);
}

/** What a status update changed of its task (what the status handlers react to). */
export interface TaskChange {
  /** The task's state differs from the last one reported. */
  readonly stateChanged: boolean;
  /** The update carried an agent-run health verdict that differs from the last one. */
  readonly healthChanged: boolean;
}

/**
 * Applies a status update to the task it reports on: state, condition, time, message, start (with
 * the container's IP addresses), the agent-run health verdict and the check's latest result. The task's state and verdict are stored with the instance
 * (recovery restores the verdict), so a change of either marks the instance changed; the check
 * result is not stored ({@link keepCheckResult}). The
 * instance's own condition follows in the first status handler (instances/status-handlers.ts).
 */
export function applyTaskStatus(ctx: InstanceContext, inst: Instance, task: Task, status: TaskStatus): TaskChange {
  const nowMs = ctx.clock.nowMs();
  const stateChanged = task.state !== status.state;
  task.state = status.state;
  task.condition = conditionOfTaskState(status.state, status.reason);
  task.lastStatusMs = nowMs;
  // The update's own message, none when it has none (Marathon's status_update_event takes the
  // published status's message or ""): never an earlier update's.
  task.message = status.message;
  if (status.state === 'TASK_RUNNING' && task.startedAtMs === undefined) {
    task.startedAtMs = nowMs;
    // The addresses of the update that first reports it running, as Marathon takes them (its
    // NetworkInfo.update, on the task's first Running): a later update does not change them.
    if (status.ipAddresses !== undefined && status.ipAddresses.length > 0) task.ipAddresses = status.ipAddresses;
  }
  const healthChanged = status.healthy !== undefined && status.healthy !== task.healthy;
  if (status.healthy !== undefined) task.healthy = status.healthy;
  if (status.checkStatus !== undefined) keepCheckResult(ctx, inst, task, checkResultOf(status.checkStatus));
  if (stateChanged || healthChanged) ctx.state.dirty.add(inst);
  return { stateChanged, healthChanged };
}

/**
 * The task's latest check result becomes `result` (undefined: none shown). The object is replaced
 * only when the result differs, so that a repeated result keeps the task's kept JSON text
 * (api/render/task-json.ts compares it by identity); a change marks the run spec changed, which
 * renews the token of its instances the API's lists keep their answers with
 * (`Scheduler.instancesToken`). The instance is not marked for writing: the result is not stored
 * (model/instance.ts `Task.checkResult`).
 */
function keepCheckResult(ctx: InstanceContext, inst: Instance, task: Task, result: CheckResult | undefined): void {
  if (sameCheckResult(task.checkResult, result)) return;
  task.checkResult = result;
  ctx.state.changed.add(inst.runSpecId);
}

/**
 * Writes every instance created or changed since the last write (the state's write set,
 * state/dirty-instances.ts) that still exists, in one store call, and empties the set: an instance
 * is written at most once per flush, with all the changes of the input so far, the created ones
 * first in creation order (the order a store first sees instances is the order it lists them at
 * recovery). Two places flush: the facade once at the end of every input, and the matcher right
 * before each ACCEPT, because the instances an offer launches must be durable before the cluster
 * sees the launch (the Store port's contract; with the ZooKeeper store the driver's calls wait for
 * the writes made before them, store/durable-driver.ts). Expunged instances are deleted at once by
 * `expungeInstance` and skipped here.
 */
export function flushInstances(ctx: InstanceContext): void {
  const state = ctx.state;
  if (state.dirty.size === 0) return;
  const live = state.dirty.take((inst) => state.isCurrent(inst));
  if (live.length > 0) ctx.effects.saveInstances(live);
}
