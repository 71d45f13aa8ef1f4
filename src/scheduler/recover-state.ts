import type { DeploymentContext } from './deployments/deployment-context';
import type { InstanceContext } from './instances/instance-context';
import type { DeploymentManager } from './deployments/deployment-manager';
import { startHealthChecks } from './health/scheduler-health';
import { seedAgentHealth } from './health/agent-health';
import { startReadiness } from './readiness/readiness-checks';
import { countRole, countsForFloor, isActive, isPlaced } from './instances/instance-tracker';
import { converge } from './instances/converge';
import { sendKills } from './kill/kill-instance';
import { isTerminalCondition, isUnreachableCondition } from './model/condition';
import { allRunSpecs } from './groups/tree-query';
import { Instance } from './model/instance';
import type { SetAsideRecord, StoredState } from './ports/store';
import type { TaskFailure } from './model/task-failure';
import { soundStoredState } from './state/stored/sound-stored-state';
import { onRecoveredUnreachable } from './unreachable/unreachable';
import { newRunSpecState } from './state/new-run-spec-state';
import type { RunSpecState } from './state/run-spec-state';

/**
 * Rebuilds the core's state from what the store kept, after a restart (issue 5, durable state):
 * the root group and its history (only what was stored: the empty root the core was built with
 * is forgotten), the run specs being run with their instances (placement counters, launch queue
 * and active counts recomputed), their last task failures, the framework id, and the running
 * deployments, which resume from their current step. Then, with the deployments running, timers
 * are armed again for what was in flight: unreachable deadlines (from the recorded
 * `unreachableSinceMs`; an expunge deadline that passed while no scheduler ran waits for
 * `taskLostExpungeInitialDelayMs`), scheduler-run health checks, and kills that had not been
 * confirmed (sent again). Launch backoff starts over, as in Marathon after a failover.
 *
 * Instances of run specs that no longer exist are forgotten, their tasks remembered as expunged
 * so that one reporting in is killed (the same path as any unknown task). History writes are
 * suppressed while recovering: nothing read back is written again.
 *
 * No stored record, however bad, stops the start (issue 11): records the core cannot load are
 * set aside in the store (`stored/sound-stored-state.ts` decides which, and what replaces an
 * unsound root) and the rest runs. Returns every record set aside, the store's own included.
 */
export function recoverState(ctx: DeploymentContext, loaded: StoredState, deployments: DeploymentManager): SetAsideRecord[] {
  const sound = soundStoredState(loaded, ctx.state.root);
  const setAside = [...(loaded.setAside ?? []), ...sound.setAside];
  for (const record of sound.setAside) ctx.store.setAside(record);
  const stored = sound.state;
  if (stored.root === undefined) return setAside;
  if (sound.rootToSave !== undefined) ctx.store.saveRoot(sound.rootToSave);
  for (const spec of sound.runSpecsToSave) ctx.store.saveRunSpec(spec);
  const state = ctx.state;
  const listener = state.history.listener;
  state.history.listener = undefined;
  // The stored deployments' roots refer to their apps' and pods' versions (store format 6): held
  // while the history is rebuilt, so its cap does not drop one of them, until they resume below.
  for (const d of stored.deployments) for (const root of [d.original, d.target]) state.history.holdRoot(root);
  // The empty root the core started with was never stored: the recovered history replaces it.
  state.history.forgetRoot(state.root.version);
  for (const root of stored.rootVersions) state.history.recordRoot(root);
  for (const spec of stored.versions) state.history.record(spec);
  // The root refers to its run specs' versions in the store (format 4): one the store lacks (a root
  // an older pacer wrote, kept whole by the migration) is stored now, before the next root write
  // refers to it. (The listener is unset while recovering; the store is told here.)
  for (const spec of allRunSpecs(stored.root)) {
    if (state.history.get(spec.id, spec.version) !== undefined) continue;
    state.history.record(spec);
    ctx.store.saveRunSpecVersion(spec);
  }
  state.history.listener = listener;
  // Root versions the cap evicted while the history was rebuilt (the listener unset): ones a
  // deployment held beyond it before that deployment ended (store format 8), or a lowered cap.
  const keptRoots = new Set(state.history.rootVersions());
  for (const root of stored.rootVersions) if (!keptRoots.has(root.version)) ctx.store.deleteRootVersion(root.version);
  // A store written before deleted apps' versions went with their last root: they go now.
  for (const { runSpecId, version } of state.history.dropUnheldApps(stored.root)) ctx.store.deleteRunSpecVersion(runSpecId, version);
  state.root = stored.root;
  if (stored.frameworkId !== undefined) state.frameworkId = stored.frameworkId;
  for (const spec of stored.runSpecs) state.addRunSpec(newRunSpecState(spec, ctx.options.lastUnusedOffersMax));
  // A record decoded from a recording or a what-if fork is the plain record an Instance's JSON
  // holds (store/sqlite/codec.ts), not an Instance: it is made one here, the core's one way in.
  for (const inst of stored.instances) adopt(ctx, inst instanceof Instance ? inst : Instance.from(inst));
  recoverTaskFailures(ctx, stored.taskFailures ?? [], setAside);
  for (const d of stored.deployments) {
    const record: SetAsideRecord = { kind: 'deployment', key: d.plan.id, reason: '' };
    lastResort(ctx, setAside, record, () => deployments.resume(ctx, d), () => deployments.cancel(ctx, d.plan.id, true));
  }
  // Timers and kills in flight come back only now, once the deployments run again: an unreachable
  // instance whose inactive deadline passed while no scheduler led is replaced at once (converge),
  // and a run spec in a rolling restart must have its restart's bounds by then, or the new
  // instances still waiting look like a surplus over the target and are dropped (swarm seed 20355:
  // scenarios/regressions/failover-resumes-restart-before-deadlines.yaml). Marathon's deployments
  // likewise start again before the reconciliation's answers move any instance.
  for (const rs of [...state.runSpecs.values()]) {
    lastResort(ctx, setAside, runSpecRecord(rs), () => rearm(ctx, rs), () => forgetHeld(ctx, deployments, rs));
  }
  // Running again, each holds its roots itself (deployment-manager.ts); the hold above ends.
  for (const d of stored.deployments) for (const root of [d.original, d.target]) state.history.releaseRoot(root);
  // Marathon's scale check after an election: a run spec no deployment holds reaches the root's count.
  for (const rs of [...state.runSpecs.values()]) {
    lastResort(ctx, setAside, runSpecRecord(rs), () => deployments.scaleCheck(ctx, [rs.spec.id]), () => forget(ctx, rs));
  }
  for (const rs of [...state.runSpecs.values()]) {
    state.demandDirty.add(rs);
    state.changed.add(rs.spec.id);
    if (rs.restart === undefined) lastResort(ctx, setAside, runSpecRecord(rs), () => converge(ctx, rs), () => forget(ctx, rs));
  }
  return setAside;
}

/**
 * The last line of defence behind the checks of `stored/`: a record that passed them but still
 * makes recovery throw is set aside (with the error as the reason) and `undo` takes what it
 * started out of the core, so that the start goes on with the rest. Deterministic: the same
 * records fail the same way.
 */
function lastResort(ctx: DeploymentContext, setAside: SetAsideRecord[], record: SetAsideRecord, run: () => void, undo: () => void): void {
  try {
    run();
  } catch (err) {
    const failed = { ...record, reason: `recovery failed: ${(err as Error).message}` };
    ctx.store.setAside(failed);
    setAside.push(failed);
    try {
      undo();
    } catch {
      // Nothing more can be taken out; the record is set aside and reported either way.
    }
  }
}

function runSpecRecord(rs: RunSpecState): SetAsideRecord {
  return { kind: 'runSpec', key: rs.spec.id, reason: '' };
}

/** {@link forget}, after stopping (forced) the deployments that resumed holding the run spec. */
function forgetHeld(ctx: DeploymentContext, deployments: DeploymentManager, rs: RunSpecState): void {
  for (const id of deployments.holding(rs.spec.id)) deployments.cancel(ctx, id, true);
  forget(ctx, rs);
}

/** Takes a run spec that could not be recovered out of the core (its instances' tasks become unknown). */
function forget(ctx: InstanceContext, rs: RunSpecState): void {
  ctx.state.forgetRunSpec(rs);
  ctx.state.demandDirty.delete(rs);
  ctx.state.changed.delete(rs.spec.id);
}

/**
 * Each run spec's stored last task failure (store format 7) becomes its `lastTaskFailure` again.
 * One whose run spec was set aside at this start is set aside with it (kept for an operator, as
 * its instances are); one whose run spec is not stored (deleted before its failure was: the two
 * deletes are not one transaction outside a command) is deleted, as Marathon deletes an app's
 * failure when the app terminates.
 */
function recoverTaskFailures(ctx: DeploymentContext, failures: readonly TaskFailure[], setAside: SetAsideRecord[]): void {
  for (const failure of failures) {
    const rs = ctx.state.runSpecs.get(failure.appId);
    if (rs !== undefined) {
      rs.lastTaskFailure = failure;
      continue;
    }
    if (setAside.some((r) => r.kind === 'runSpec' && r.key === failure.appId)) {
      const record: SetAsideRecord = { kind: 'taskFailure', key: failure.appId, reason: `its app or pod ${failure.appId} was set aside` };
      ctx.store.setAside(record);
      setAside.push(record);
    } else {
      ctx.store.deleteTaskFailure(failure.appId);
    }
  }
}

/** Puts a stored instance back under its run spec, keeping the run spec's counters right. */
function adopt(ctx: DeploymentContext, inst: Instance): void {
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
  if (isRetiredResident(inst)) {
    // Its reservation and volumes still wait for DESTROY + UNRESERVE (instance-lifecycle.ts
    // `retireInstance`): the stored instance is the record of what to release, so a restart
    // releases it as the process before it would have.
    (rs.releasing ??= new Map()).set(inst.instanceId, inst.reservation?.role ?? inst.role);
    return;
  }
  if (inst.condition === 'Scheduled') rs.scheduled.push(inst);
  if (isActive(inst)) rs.activeCount++;
  if (inst.condition === 'Running') rs.runningCount++;
  if (countsForFloor(inst)) rs.floorCounted++;
  if (isPlaced(inst) && inst.agent !== undefined) rs.counts.add(inst.agent);
}

/**
 * A resident instance that is done (not to run again) and whose task is not alive, but which keeps
 * a reservation to release: what `retireInstance` leaves behind.
 */
function isRetiredResident(inst: Instance): boolean {
  return inst.reservation !== undefined && inst.goal !== 'Running' && (inst.condition === 'Scheduled' || isTerminalCondition(inst.condition));
}

/** Timers and calls that were in flight for the instances of `rs` when the process stopped. */
function rearm(ctx: InstanceContext, rs: RunSpecState): void {
  for (const inst of [...rs.instances.values()]) {
    if (isTerminalCondition(inst.condition) || inst.condition === 'Scheduled') continue;
    if (inst.goal !== 'Running' && inst.killRequestedAtMs !== undefined) {
      sendKills(ctx, rs.spec, inst);
      continue;
    }
    if (isUnreachableCondition(inst.condition)) {
      // Whether it counts for the kill-storm floor once back Running is its stored `proven` (swarm seed 20536).
      onRecoveredUnreachable(ctx, rs, inst);
    } else if (inst.condition === 'Running') {
      startHealthChecks(ctx, rs, inst);
      seedAgentHealth(ctx, rs.spec, inst);
      startReadiness(ctx, rs, inst);
    }
  }
}
