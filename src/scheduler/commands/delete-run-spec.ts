import type { CoreContext } from '../core-context';
import { emitHealthCheckChanges } from '../events/health-check-events';
import { finishDeleteIfDone } from '../instances/finish-delete';
import { killInstance } from '../kill/kill-instance';
import type { CommandResult } from '../model/inputs';

/**
 * Delete a run spec: every instance is killed and forgotten; once the last one is gone the run
 * spec is forgotten and `app_terminated_event` is emitted.
 */
export function deleteRunSpec(ctx: CoreContext, runSpecId: string): CommandResult {
  const rs = ctx.state.runSpecs.get(runSpecId);
  if (rs === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  rs.deleting = true;
  ctx.state.demandDirty.add(rs);
  emitHealthCheckChanges(ctx, rs.spec, undefined);
  for (const inst of [...rs.instances.values()]) killInstance(ctx, rs, inst, 'deleted', 'Decommissioned');
  finishDeleteIfDone(ctx, rs);
  return { ok: true };
}
