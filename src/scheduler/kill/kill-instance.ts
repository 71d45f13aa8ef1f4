import type { InstanceContext } from '../instances/instance-context';
import { isTerminalCondition } from '../model/condition';
import type { Goal, Instance, KillReason } from '../model/instance';
import type { RunSpec } from '../model/run-spec';
import type { RunSpecState } from '../state/run-spec-state';
import { expungeInstance, retireInstance } from '../instances/instance-lifecycle';
import { markKillRequested, setGoal, setKillReason } from '../instances/instance-tracker';

/** Kill grace period when a definition sets none (spec 2.4: `taskKillGracePeriodSeconds` default 3). */
export const DEFAULT_KILL_GRACE_MS = 3000;

/**
 * Kills an instance: remembers why, sets its goal, and asks the cluster to kill every live task
 * (SIGTERM, SIGKILL after the grace period). A pod instance is always killed whole (spec rule 10).
 * An instance still waiting for an offer has nothing to kill: it leaves the queue, and is
 * forgotten unless its goal is still Running.
 */
export function killInstance(ctx: InstanceContext, rs: RunSpecState, inst: Instance, reason: KillReason, goal: Goal): void {
  // Waiting for an offer and to run all the same (a kill without scale or wipe): nothing to kill
  // and nothing to remember — a reason kept here outlived the launch, and a running instance with
  // a kill reason counts as being killed (a rolling restart waited for it forever: swarm seed 31352).
  if (inst.condition === 'Scheduled' && goal === 'Running') return;
  // The reason first: listeners of the goal change's instance_changed_event read why (the
  // decision lines of src/runtime/decision-reader.ts).
  setKillReason(ctx, inst, reason);
  setGoal(ctx, rs, inst, goal);
  if (inst.condition === 'Scheduled') {
    if (goal !== 'Running') retireInstance(ctx, rs, inst);
    return;
  }
  if (isTerminalCondition(inst.condition)) return;
  sendKills(ctx, rs.spec, inst);
  if (cannotAnswerKill(rs.spec, inst)) expungeInstance(ctx, rs, inst);
}

const UNANSWERING = new Set(['Unreachable', 'UnreachableInactive', 'Unknown']);

/**
 * The kill rule for an instance that cannot answer a kill (Marathon's `KillAction`: an unreachable
 * ephemeral instance is expunged from state, not waited for): true when it is not to run again,
 * is not resident (a reservation is kept until its agent answers) and is unreachable or unknown.
 * Such an instance is forgotten at once; if its task comes back it is unknown, killed and reported
 * (`unknown_instance_terminated_event`). It applies however the two facts meet — a kill of an
 * instance that is unreachable already ({@link killInstance}, also when a restarted core
 * re-applies a running Stop), or an instance being killed that becomes unreachable
 * (unreachable/unreachable.ts) — so a running core and a restarted one keep the same instances.
 */
export function cannotAnswerKill(spec: RunSpec, inst: Instance): boolean {
  return inst.goal !== 'Running' && !spec.resident && UNANSWERING.has(inst.condition);
}

/** Sends the kill calls for every task that is not known to be terminal, and arms the retry timer. */
export function sendKills(ctx: InstanceContext, spec: RunSpec | undefined, inst: Instance): void {
  const nowMs = ctx.clock.nowMs();
  let maxGraceMs = 0;
  for (const task of inst.tasks) {
    if (task.state !== undefined && isTerminalCondition(task.condition)) continue;
    const graceMs = gracePeriodMs(spec, task.containerName);
    maxGraceMs = Math.max(maxGraceMs, graceMs);
    ctx.effects.kill(task.taskId, inst.agent?.agentId, graceMs);
  }
  markKillRequested(ctx, inst);
  ctx.effects.setTimer(nowMs + maxGraceMs + ctx.options.killRetryMs, {
    type: 'timer',
    timer: { kind: 'killRetry', instanceId: inst.instanceId, incarnation: inst.incarnation },
  });
}

/**
 * Kill retry (Marathon's `--kill_retry_timeout`): a kill can be lost (partitioned agent, dropped
 * message); while the instance is not terminal, kill again.
 */
export function onKillRetry(ctx: InstanceContext, instanceId: string, incarnation: number): void {
  const inst = ctx.state.instance(instanceId);
  if (inst === undefined || inst.incarnation !== incarnation || inst.killRequestedAtMs === undefined) return;
  if (isTerminalCondition(inst.condition) || inst.condition === 'Scheduled') return;
  sendKills(ctx, ctx.state.runSpecs.get(inst.runSpecId)?.spec, inst);
}

/** Per task: the app's `taskKillGracePeriodSeconds`, or the pod container's `lifecycle.killGracePeriodSeconds`. */
export function gracePeriodMs(spec: RunSpec | undefined, containerName: string | undefined): number {
  if (spec === undefined) return DEFAULT_KILL_GRACE_MS;
  if (spec.kind === 'app') return spec.killGracePeriodMs ?? DEFAULT_KILL_GRACE_MS;
  const container = spec.containers.find((c) => c.name === containerName);
  return container?.killGracePeriodMs ?? DEFAULT_KILL_GRACE_MS;
}
