import type { InstanceContext } from './instance-context';
import { isoTime } from '../kernel/iso-time';
import type { RunSpecState } from '../state/run-spec-state';

/**
 * Completes a delete once the run spec's last instance is gone and no reservation of its waits to
 * be released (`RunSpecState.releasing`: a wiped instance's is held there after the instance is
 * forgotten, and forgetting the run spec would stop wanting the offer that releases it): forgets
 * the run spec and emits `app_terminated_event` (Marathon emits it for apps and pods alike once
 * fully stopped), and deletes its stored record and its last task failure.
 */
export function finishDeleteIfDone(ctx: InstanceContext, rs: RunSpecState): void {
  if (!rs.deleting || rs.instances.size > 0 || (rs.releasing?.size ?? 0) > 0 || ctx.state.runSpecs.get(rs.spec.id) !== rs) return;
  ctx.state.forgetRunSpec(rs);
  ctx.state.changed.add(rs.spec.id);
  ctx.state.demandDirty.add(rs);
  ctx.effects.clearTimer(rs.backoff?.timer);
  ctx.effects.deleteRunSpec(rs.spec.id);
  // Marathon's HistoryActor deletes the app's TaskFailure on app_terminated_event.
  ctx.effects.deleteTaskFailure(rs.spec.id);
  ctx.effects.event({ eventType: 'app_terminated_event', timestamp: isoTime(ctx.clock.nowMs()), appId: rs.spec.id });
}
