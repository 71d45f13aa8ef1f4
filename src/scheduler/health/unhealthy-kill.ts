import type { CoreContext } from '../core-context';
import { isoTime } from '../kernel/iso-time';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { killInstance } from '../kill/kill-instance';
import { recordTaskFailure } from '../instances/record-task-failure';

/**
 * Kills an instance for failing health checks and announces it. Spec section 6 lists both
 * `unhealthy_task_kill_event` and `unhealthy_instance_kill_event`; Marathon 1.11 emits only the
 * latter. We emit both (the spec wins where it speaks) so consumers of either keep working.
 * The instance keeps goal Running: it is replaced, and the replacement is subject to backoff. The
 * kill becomes the run spec's `lastTaskFailure` (state TASK_KILLED, the reason as message).
 */
export function killUnhealthy(ctx: CoreContext, rs: RunSpecState, inst: Instance, reason: string, alreadyKilled: boolean): void {
  const timestamp = isoTime(ctx.clock.nowMs());
  const taskId = inst.tasks[0]?.taskId ?? inst.instanceId;
  const host = inst.agent?.hostname ?? '';
  const slaveId = inst.agent?.agentId ?? '';
  const version = inst.runSpecVersion;
  recordTaskFailure(rs, inst, taskId, 'TASK_KILLED', reason, ctx.clock.nowMs());
  ctx.bus.emit({ eventType: 'unhealthy_task_kill_event', timestamp, appId: inst.runSpecId, taskId, version, reason, host, slaveId });
  ctx.bus.emit({
    eventType: 'unhealthy_instance_kill_event', timestamp, appId: inst.runSpecId, taskId, instanceId: inst.instanceId, version, reason, host, slaveId,
  });
  if (alreadyKilled) inst.killReason ??= 'unhealthy';
  else killInstance(ctx, rs, inst, 'unhealthy', 'Running');
}
