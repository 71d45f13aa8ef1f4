import type { CoreContext } from '../core-context';
import { PlacementCounts } from '../constraints/placement-counts';
import { emitHealthCheckChanges } from '../events/health-check-events';
import { converge } from '../instances/converge';
import { isPlaced } from '../instances/instance-lifecycle';
import { killInstance } from '../kill/kill-instance';
import { resetBackoff } from '../launch-queue/backoff';
import { compileLaunchRequest } from '../matcher/launch-request';
import type { CommandResult } from '../model/inputs';
import type { RunSpec } from '../model/run-spec';
import { newRunSpecState } from '../state/new-run-spec-state';
import type { RunSpecState } from '../state/run-spec-state';
import { sameConfig } from './same-config';

/**
 * Create or update a run spec. A scale-only change keeps `lastConfigChangeAt` and just converges
 * the count. Any other change is a new config version: backoff resets, instances of the old
 * version are replaced (killed and relaunched with the new one) and constraint counters are
 * rebuilt. (Rolling replacement with upgrade strategies belongs to deployments, a later layer.)
 */
export function putRunSpec(ctx: CoreContext, spec: RunSpec): CommandResult {
  const existing = ctx.state.runSpecs.get(spec.id);
  if (existing === undefined) {
    const rs = newRunSpecState(spec, ctx.options.lastUnusedOffersMax);
    ctx.state.addRunSpec(rs);
    ctx.store.saveRunSpec(spec);
    emitHealthCheckChanges(ctx, undefined, spec);
    converge(ctx, rs);
    return { ok: true };
  }
  existing.deleting = false;
  if (sameConfig(existing.spec, spec)) updateScaleOnly(ctx, existing, spec);
  else updateConfig(ctx, existing, spec);
  ctx.state.demandDirty.add(existing);
  converge(ctx, existing);
  return { ok: true };
}

function updateScaleOnly(ctx: CoreContext, rs: RunSpecState, spec: RunSpec): void {
  const versionInfo = { lastConfigChangeAt: rs.spec.versionInfo.lastConfigChangeAt, lastScalingAt: spec.version };
  rs.spec = { ...spec, versionInfo, definition: { ...spec.definition, versionInfo } };
  ctx.store.saveRunSpec(rs.spec);
}

function updateConfig(ctx: CoreContext, rs: RunSpecState, spec: RunSpec): void {
  const previous = rs.spec;
  rs.spec = spec;
  rs.request = compileLaunchRequest(spec);
  rs.counts = new PlacementCounts(rs.request.constraints);
  for (const inst of rs.instances.values()) if (isPlaced(inst) && inst.agent !== undefined) rs.counts.add(inst.agent);
  resetBackoff(ctx, rs);
  ctx.store.saveRunSpec(spec);
  emitHealthCheckChanges(ctx, previous, spec);
  for (const inst of [...rs.instances.values()]) {
    if (inst.condition === 'Scheduled') {
      inst.runSpecVersion = spec.version;
      inst.role = spec.role;
    } else if (inst.goal === 'Running' && inst.runSpecVersion !== spec.version) {
      killInstance(ctx, rs, inst, 'replaced', 'Decommissioned');
    }
  }
}
