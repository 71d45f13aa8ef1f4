import type { InstanceContext } from './instance-context';
import { statusUpdateEvent } from '../events/instance-events';
import { instanceIdOfTask } from '../kernel/ids';
import { isoTime } from '../kernel/iso-time';
import { conditionOfTaskState } from '../model/condition';
import type { TaskStatus } from '../model/inputs';
import type { Instance, Task } from '../model/instance';
import { isTerminalTaskState } from '../model/task-state';
import { taskOfInstance } from '../state/task-owners';
import { DEFAULT_KILL_GRACE_MS } from '../kill/kill-instance';
import { applyTaskStatus } from './instance-tracker';
import type { InstanceEffect } from './instance-effects';
import { runStatusHandlers } from './status-handlers';

/**
 * A task status update — the tracker's one way in for the cluster's news: the tracker applies it
 * to the task (instance-tracker.ts `applyTaskStatus`), `status_update_event` announces it, and the
 * ordered list of status handlers reacts once (status-handlers.ts: the instance's condition,
 * unreachable strategy, health and readiness checks, relaunch with backoff or retirement, …).
 * Updates carrying a uuid are acknowledged after they were applied.
 *
 * Touches no port: returns what is to happen — every effect of the update (and any the input
 * appended before it), in the order decided — for the caller to carry out (the facade's
 * EffectApplier; issue 12, operations in, effects out).
 */
export function onStatus(ctx: InstanceContext, status: TaskStatus): readonly InstanceEffect[] {
  const inst = ctx.state.taskOwner(status.taskId);
  if (inst === undefined) onUnknownTask(ctx, status);
  else onKnownTask(ctx, inst, status);
  if (status.uuid !== undefined && status.agentId !== undefined) ctx.effects.acknowledge(status.agentId, status.taskId, status.uuid);
  return ctx.effects.take();
}

function onKnownTask(ctx: InstanceContext, inst: Instance, status: TaskStatus): void {
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  const task = taskOfInstance(inst, status.taskId) as Task;
  const applied = applyTaskStatus(ctx, inst, task, status);
  if (applied.stateChanged) ctx.effects.event(statusUpdateEvent(inst, task, ctx.clock.nowMs()));
  if (rs === undefined) return;
  // Written field by field: V8 ran `{ ...applied, rs, … }` here at 4–50 µs a status (a spread
  // followed by more properties), half of bench:sim's CPU (measured by sim3, 2026-11-29).
  runStatusHandlers(ctx, {
    stateChanged: applied.stateChanged, healthChanged: applied.healthChanged,
    rs, inst, task, status, before: inst.condition, became: inst.condition, conditionChanged: false, relaunch: false,
  });
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
    if (shouldKillUnknown(ctx, entry, status)) ctx.effects.kill(status.taskId, status.agentId, DEFAULT_KILL_GRACE_MS);
    return;
  }
  if (known === undefined) return;
  ctx.state.expungedTasks.delete(status.taskId);
  ctx.effects.event({
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
