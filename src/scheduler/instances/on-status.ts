import type { InstanceContext } from './instance-context';
import { statusUpdateEvent } from '../events/instance-events';
import { instanceIdOfTask } from '../kernel/ids';
import { isoTime } from '../kernel/iso-time';
import { combineTaskConditions, conditionOfTaskState, isTerminalCondition, type Condition } from '../model/condition';
import type { TaskStatus } from '../model/inputs';
import type { Instance, Task } from '../model/instance';
import { isTerminalTaskState } from '../model/task-state';
import type { RunSpecState } from '../state/run-spec-state';
import { recordLaunchFailure } from './backoff';
import { hasAgentCheck, refreshInstanceHealth } from '../health/instance-health';
import { startReadiness } from '../readiness/readiness-checks';
import { startHealthChecks } from '../health/scheduler-health';
import { onAgentVerdict } from '../health/agent-health';
import { killUnhealthy } from '../health/unhealthy-kill';
import { DEFAULT_KILL_GRACE_MS, sendKills } from '../kill/kill-instance';
import { onBecameUnreachable } from '../unreachable/unreachable';
import { converge } from './converge';
import { rescheduleInstance, retireInstance } from './instance-lifecycle';
import { applyTaskStatus, clearUnreachable, markStarted, setCondition, setKillReason, setReservation } from './instance-tracker';
import { finishDeleteIfDone } from './finish-delete';
import { recordTaskFailure } from './record-task-failure';
import { FAILURE_STATES } from '../model/task-failure';

/**
 * A task status update: updates the task, derives the instance condition, and reacts — health
 * checking when it runs, the unreachable strategy, relaunch with backoff or expunge when it ends.
 * Updates carrying a uuid are acknowledged after they were applied.
 */
export function onStatus(ctx: InstanceContext, status: TaskStatus): void {
  const inst = ctx.state.taskOwner(status.taskId);
  if (inst === undefined) onUnknownTask(ctx, status);
  else onKnownTask(ctx, inst, status);
  if (status.uuid !== undefined && status.agentId !== undefined) ctx.driver.acknowledge(status.agentId, status.taskId, status.uuid);
}

function onKnownTask(ctx: InstanceContext, inst: Instance, status: TaskStatus): void {
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  const task = inst.tasks.find((t) => t.taskId === status.taskId) as Task;
  const nowMs = ctx.clock.nowMs();
  const { stateChanged, healthChanged } = applyTaskStatus(ctx, inst, task, status);
  if (stateChanged) ctx.bus.emit(statusUpdateEvent(inst, task, nowMs));
  if (rs === undefined) return;
  confirmReservation(ctx, inst, status);
  if (stateChanged && FAILURE_STATES.has(status.state)) recordTaskFailure(rs, inst, task.taskId, status.state, task.message ?? '', nowMs);
  const wasUnreachable = inst.condition === 'Unreachable' || inst.condition === 'UnreachableInactive';
  const wasReplaced = inst.condition === 'UnreachableInactive';
  const next = instanceCondition(inst);
  if (next !== inst.condition) {
    setCondition(ctx, rs, inst, next);
    afterConditionChange(ctx, rs, inst, wasUnreachable, wasReplaced, status);
  }
  if (ctx.state.isCurrent(inst)) {
    if (healthChanged) refreshInstanceHealth(ctx, rs.spec, inst);
    if ((healthChanged || stateChanged) && status.healthy !== undefined) onAgentVerdict(ctx, rs.spec, inst, task, status.healthy);
  }
  if (inst.kind === 'pod' && isTerminalCondition(task.condition) && inst.condition === 'Killing' && inst.killRequestedAtMs === undefined) {
    setKillReason(ctx, inst, 'pod-sibling');
    sendKills(ctx, rs.spec, inst);
  }
}

/**
 * A first launch's reservation (`InstanceReservation.unconfirmed`) is confirmed by any update from
 * the agent (it carries a uuid) or any non-terminal one. A terminal update without a uuid (the
 * driver or the master: TASK_DROPPED of an ACCEPT that was never applied, TASK_ERROR of a refused
 * one) leaves it unknown whether the RESERVE happened: the reservation is forgotten so the
 * instance is placed afresh; should it exist, its offer is recognised by its labels
 * (launcher/resident-offers.ts: relaunched on it while the instance waits, released otherwise).
 */
function confirmReservation(ctx: InstanceContext, inst: Instance, status: TaskStatus): void {
  const r = inst.reservation;
  if (r === undefined || r.unconfirmed !== true) return;
  if (status.uuid !== undefined || !isTerminalTaskState(status.state)) setReservation(ctx, inst, { agentId: r.agentId, role: r.role, volumes: r.volumes });
  else setReservation(ctx, inst, undefined);
}

function instanceCondition(inst: Instance): Condition {
  const next = combineTaskConditions(inst.tasks.map((t) => (t.state === undefined ? 'Provisioned' : t.condition)));
  return next === 'Unreachable' && inst.condition === 'UnreachableInactive' ? 'UnreachableInactive' : next;
}

function afterConditionChange(
  ctx: InstanceContext, rs: RunSpecState, inst: Instance, wasUnreachable: boolean, wasReplaced: boolean, status: TaskStatus,
): void {
  const c = inst.condition;
  if (c === 'Unreachable') {
    onBecameUnreachable(ctx, rs, inst);
    return;
  }
  if (isTerminalCondition(c)) {
    onTerminal(ctx, rs, inst, wasReplaced, status);
    return;
  }
  if (wasUnreachable && c !== 'UnreachableInactive') {
    clearUnreachable(ctx, inst);
    converge(ctx, rs);
  }
  if (c === 'Running' && ctx.state.isCurrent(inst)) {
    markStarted(ctx, inst);
    startHealthChecks(ctx, rs, inst);
    startReadiness(ctx, rs, inst);
  }
}

/**
 * `wasReplaced`: the instance was UnreachableInactive, so a replacement already fills its place;
 * it is forgotten rather than relaunched (relaunching would only create a surplus to kill, and
 * its backoff would delay the replacement).
 */
function onTerminal(ctx: InstanceContext, rs: RunSpecState, inst: Instance, wasReplaced: boolean, status: TaskStatus): void {
  ctx.health.forget(ctx, inst);
  if (status.state === 'TASK_KILLED' && status.healthy === false && inst.killReason === undefined && hasAgentCheck(rs.spec, inst.tasks.find((t) => t.taskId === status.taskId)?.containerName)) {
    killUnhealthy(ctx, rs, inst, 'health check failed on the agent', true);
  }
  if (inst.goal !== 'Running' || rs.deleting || wasReplaced) {
    retireInstance(ctx, rs, inst);
    finishDeleteIfDone(ctx, rs);
    if (!rs.deleting) converge(ctx, rs);
    return;
  }
  // Kills we or the user asked for are not launch failures (no backoff for the relaunch).
  if (inst.killReason !== 'user' && inst.killReason !== 'replaced') recordLaunchFailure(ctx, rs);
  rescheduleInstance(ctx, rs, inst);
  converge(ctx, rs);
}

/**
 * A task we do not know: a task of an expunged instance that came back, or a stray. Live ones are
 * killed; when one ends, `unknown_instance_terminated_event` reports it.
 */
function onUnknownTask(ctx: InstanceContext, status: TaskStatus): void {
  const known = ctx.state.expungedTasks.get(status.taskId);
  if (!isTerminalTaskState(status.state)) {
    const instanceId = instanceIdOfTask(status.taskId);
    const entry = known ?? { instanceId, runSpecId: runSpecIdOfInstance(instanceId) };
    ctx.state.expungedTasks.set(status.taskId, entry);
    if (shouldKillUnknown(ctx, entry, status)) ctx.driver.kill(status.taskId, status.agentId, DEFAULT_KILL_GRACE_MS);
    return;
  }
  if (known === undefined) return;
  ctx.state.expungedTasks.delete(status.taskId);
  ctx.bus.emit({
    eventType: 'unknown_instance_terminated_event',
    timestamp: isoTime(ctx.clock.nowMs()),
    instanceId: known.instanceId,
    runSpecId: known.runSpecId,
    condition: conditionOfTaskState(status.state, status.reason),
  });
}

/**
 * Kill a returning unknown task at most once per kill-retry interval, and not on answers a kill
 * cannot change: TASK_UNREACHABLE / TASK_UNKNOWN come back at once for a task on an unreachable
 * agent (the master answers a kill with reconciliation), and killing again on each would loop
 * forever at one instant (found by the swarm: scenarios/regressions/*-livelock.yaml);
 * TASK_KILLING means our kill is already in progress.
 */
function shouldKillUnknown(ctx: InstanceContext, entry: { lastKillMs?: number }, status: TaskStatus): boolean {
  if (status.state === 'TASK_UNREACHABLE' || status.state === 'TASK_UNKNOWN' || status.state === 'TASK_KILLING') return false;
  const nowMs = ctx.clock.nowMs();
  if (entry.lastKillMs !== undefined && nowMs - entry.lastKillMs < ctx.options.killRetryMs) return false;
  entry.lastKillMs = nowMs;
  return true;
}

/** `prod_web.instance-…` → `/prod/web` (best effort for strays: `_` in names is ambiguous). */
function runSpecIdOfInstance(instanceId: string): string {
  const marker = instanceId.indexOf('.instance-');
  const safe = marker < 0 ? instanceId : instanceId.slice(0, marker);
  return `/${safe.replace(/_/g, '/')}`;
}
