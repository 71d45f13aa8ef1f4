import type { CoreContext } from '../core-context';
import type { DeploymentManager } from '../deployments/deployment-manager';
import { startHealthChecks } from '../health/scheduler-health';
import { seedAgentHealth } from '../health/agent-health';
import { startReadiness } from '../readiness/readiness-checks';
import { countRole, isActive, isPlaced } from '../instances/instance-lifecycle';
import { converge } from '../instances/converge';
import { sendKills } from '../kill/kill-instance';
import { isTerminalCondition } from '../model/condition';
import type { Instance } from '../model/instance';
import type { StoredState } from '../ports/store';
import { onBecameUnreachable } from '../unreachable/unreachable';
import { newRunSpecState } from './new-run-spec-state';
import type { RunSpecState } from './run-spec-state';

/**
 * Rebuilds the core's state from what the store kept, after a restart (issue 5, durable state):
 * the root group and its history (only what was stored: the empty root the core was built with
 * is forgotten), the run specs being run with their instances (placement
 * counters, launch queue and active counts recomputed), the framework id, and the running
 * deployments, which resume from their current step. Timers are armed again for what was in
 * flight: unreachable deadlines (from the recorded `unreachableSinceMs`), scheduler-run health
 * checks, and kills that had not been confirmed (sent again). Launch backoff starts over, as in
 * Marathon after a failover.
 *
 * Instances of run specs that no longer exist are forgotten, their tasks remembered as expunged
 * so that one reporting in is killed (the same path as any unknown task). History writes are
 * suppressed while recovering: nothing read back is written again.
 */
export function recoverState(ctx: CoreContext, stored: StoredState, deployments: DeploymentManager): void {
  const state = ctx.state;
  if (stored.root === undefined) return;
  const listener = state.history.listener;
  state.history.listener = undefined;
  // The empty root the core started with was never stored: the recovered history replaces it.
  state.history.forgetRoot(state.root.version);
  for (const root of stored.rootVersions) state.history.recordRoot(root);
  for (const spec of stored.versions) state.history.record(spec);
  state.history.listener = listener;
  state.root = stored.root;
  if (stored.frameworkId !== undefined) state.frameworkId = stored.frameworkId;
  for (const spec of stored.runSpecs) state.addRunSpec(newRunSpecState(spec, ctx.options.lastUnusedOffersMax));
  for (const inst of stored.instances) adopt(ctx, inst);
  for (const rs of state.runSpecs.values()) rearm(ctx, rs);
  for (const d of stored.deployments) deployments.resume(ctx, d);
  for (const rs of state.runSpecs.values()) {
    state.demandDirty.add(rs);
    state.changed.add(rs.spec.id);
    if (rs.restart === undefined) converge(ctx, rs);
  }
}

/** Puts a stored instance back under its run spec, keeping the run spec's counters right. */
function adopt(ctx: CoreContext, inst: Instance): void {
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  if (rs === undefined) {
    for (const task of inst.tasks) {
      if (task.state === undefined || !isTerminalCondition(task.condition)) {
        ctx.state.expungedTasks.set(task.taskId, { instanceId: inst.instanceId, runSpecId: inst.runSpecId });
      }
    }
    ctx.store.deleteInstance(inst.instanceId);
    return;
  }
  rs.instances.set(inst.instanceId, inst);
  countRole(ctx, rs, inst.role, 1);
  if (inst.condition === 'Scheduled') rs.scheduled.push(inst);
  if (isActive(inst)) rs.activeCount++;
  if (isPlaced(inst) && inst.agent !== undefined) rs.counts.add(inst.agent);
}

/** Timers and calls that were in flight for the instances of `rs` when the process stopped. */
function rearm(ctx: CoreContext, rs: RunSpecState): void {
  for (const inst of [...rs.instances.values()]) {
    if (isTerminalCondition(inst.condition) || inst.condition === 'Scheduled') continue;
    if (inst.goal !== 'Running' && inst.killRequestedAtMs !== undefined) {
      sendKills(ctx, rs.spec, inst);
      continue;
    }
    if (inst.condition === 'Unreachable' || inst.condition === 'UnreachableInactive') onBecameUnreachable(ctx, rs, inst);
    else if (inst.condition === 'Running') {
      startHealthChecks(ctx, rs, inst);
      seedAgentHealth(ctx, rs.spec, inst);
      startReadiness(ctx, rs, inst);
    }
  }
}
