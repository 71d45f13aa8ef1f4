import type { CoreContext } from '../core-context';
import { converge } from '../instances/converge';
import type { CommandResult } from '../model/inputs';
import { withInstances } from './with-instances';

/** Scale a run spec to `instances` (a scale-only change: no restart, backoff kept). */
export function scaleRunSpec(ctx: CoreContext, runSpecId: string, instances: number): CommandResult {
  const rs = ctx.state.runSpecs.get(runSpecId);
  if (rs === undefined || rs.deleting) return { ok: false, error: 'unknown-run-spec', message: `App '${runSpecId}' does not exist` };
  if (!Number.isInteger(instances) || instances < 0) return { ok: false, error: 'invalid', message: 'instances must be a non-negative integer' };
  rs.spec = withInstances(rs.spec, instances, ctx.clock.nowMs());
  ctx.store.saveRunSpec(rs.spec);
  converge(ctx, rs);
  return { ok: true };
}
