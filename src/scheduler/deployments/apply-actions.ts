import type { DeploymentContext } from './deployment-context';
import { PlacementCounts } from '../constraints/placement-counts';
import { emitHealthCheckChanges } from '../events/health-check-events';
import { converge } from '../instances/converge';
import { isPlaced, retarget } from '../instances/instance-tracker';
import { resetBackoff } from '../instances/backoff';
import { compileLaunchRequest } from '../state/launch-request';
import type { RunSpec } from '../model/run-spec';
import { newRunSpecState } from '../state/new-run-spec-state';
import type { RunSpecState } from '../state/run-spec-state';
import { restartBounds } from '../instances/restart-bounds';

/**
 * StartApplication / StartPod: the run spec exists from now on, with no instances yet (its
 * ScaleApplication in a later step sets the count), as Marathon does.
 */
export function applyStart(ctx: DeploymentContext, spec: RunSpec): RunSpecState {
  const existing = ctx.state.runSpecs.get(spec.id);
  if (existing !== undefined) {
    if (existing.deleting) emitHealthCheckChanges(ctx, undefined, spec);
    existing.deleting = false;
    return existing;
  }
  const rs = newRunSpecState({ ...spec, instances: 0 }, ctx.options.lastUnusedOffersMax);
  ctx.state.addRunSpec(rs);
  ctx.store.saveRunSpec(spec);
  emitHealthCheckChanges(ctx, undefined, spec);
  return rs;
}

/** ScaleApplication / ScalePod: the new definition differs at most in its count; converge to it. */
export function applyScale(ctx: DeploymentContext, spec: RunSpec): RunSpecState {
  const rs = ctx.state.runSpecs.get(spec.id) ?? applyStart(ctx, spec);
  const previous = rs.spec;
  rs.deleting = false;
  rs.restart = undefined;
  rs.spec = spec;
  if (previous.version !== spec.version) {
    rs.request = compileLaunchRequest(spec);
    rebuildCounts(rs);
  }
  ctx.store.saveRunSpec(spec);
  ctx.state.demandDirty.add(rs);
  converge(ctx, rs);
  return rs;
}

/**
 * RestartApplication / RestartPod: a new config version. Backoff starts over, constraint counters
 * are rebuilt, and instances of older versions are replaced step by step within the upgrade
 * strategy's bounds (instances/converge-restart.ts).
 */
export function applyRestart(ctx: DeploymentContext, spec: RunSpec): RunSpecState {
  const rs = ctx.state.runSpecs.get(spec.id) ?? applyStart(ctx, spec);
  const previous = rs.spec;
  rs.deleting = false;
  rs.spec = spec;
  rs.request = compileLaunchRequest(spec);
  rebuildCounts(rs);
  resetBackoff(ctx, rs);
  ctx.store.saveRunSpec(spec);
  emitHealthCheckChanges(ctx, previous, spec);
  // A resident instance keeps the role of its reservations (fact 114).
  for (const inst of rs.scheduled.toArray()) retarget(ctx, rs, inst, spec);
  rs.restart = restartBounds(spec.instances, spec.upgrade, spec.resident);
  ctx.state.demandDirty.add(rs);
  converge(ctx, rs);
  return rs;
}

function rebuildCounts(rs: RunSpecState): void {
  rs.counts = new PlacementCounts(rs.request.constraints);
  for (const inst of rs.instances.values()) if (isPlaced(inst) && inst.agent !== undefined) rs.counts.add(inst.agent);
}
