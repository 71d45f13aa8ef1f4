import type { CoreContext } from '../core-context';
import { emitHealthCheckChanges } from '../events/health-check-events';
import { finishDeleteIfDone } from '../instances/finish-delete';
import { killInstance } from '../kill/kill-instance';
import { deferChange, takeChangeBudget } from '../instances/instance-lifecycle';
import type { RunSpecState } from '../state/run-spec-state';
import { findRunSpec } from '../groups/tree-query';
import type { CommandResult } from '../model/inputs';
import { deployChange } from './deploy-change';
import { versionAfter } from './version-after';

/**
 * DELETE of an app or pod: a new root without it, deployed as a StopApplication/StopPod plan.
 * Marathon's app DELETE defaults to `force` (it cancels a running deployment of the app).
 */
export function deleteRunSpecCommand(ctx: CoreContext, runSpecId: string, force: boolean): CommandResult {
  if (findRunSpec(ctx.state.root, runSpecId) === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  const version = versionAfter(ctx.clock.nowMs(), ctx.state.root.version);
  return deployChange(ctx, ctx.groups.removeRunSpec(ctx.state.root, runSpecId, version), force, runSpecId);
}

/**
 * The StopApplication action: every instance is killed and forgotten; once the last one is gone
 * the run spec is forgotten and `app_terminated_event` is emitted.
 */
export function deleteRunSpec(ctx: CoreContext, runSpecId: string): CommandResult {
  const rs = ctx.state.runSpecs.get(runSpecId);
  if (rs === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  rs.deleting = true;
  rs.restart = undefined;
  rs.toCreate = 0;
  ctx.state.demandDirty.add(rs);
  emitHealthCheckChanges(ctx, rs.spec, undefined);
  rs.toKill = [...rs.instances.values()].reverse();
  killForDelete(ctx, rs);
  return { ok: true };
}

/**
 * Kills the next instances of a run spec being deleted, in creation order, as many as this
 * input's budget allows (SchedulerOptions.instancesPerInput); the rest in later inputs (issue 11
 * item 4: deleting an app of 100,000 instances took 1.2 s in one input). Instances already gone
 * are skipped; a run spec created again meanwhile (no longer deleting) keeps the rest.
 */
export function killForDelete(ctx: CoreContext, rs: RunSpecState): void {
  if (!rs.deleting) {
    rs.toKill = [];
    return;
  }
  for (let inst = rs.toKill.pop(); inst !== undefined; inst = rs.toKill.pop()) {
    if (rs.instances.get(inst.instanceId) !== inst) continue;
    if (!takeChangeBudget(ctx)) {
      rs.toKill.push(inst);
      deferChange(ctx, rs);
      return;
    }
    killInstance(ctx, rs, inst, 'deleted', 'Decommissioned');
  }
  finishDeleteIfDone(ctx, rs);
}
