import { isoTime } from '../kernel/iso-time';
import type { Instance } from '../model/instance';
import { cutText, TASK_FAILURE_BOUNDS, taskFailureFits, type TaskFailure } from '../model/task-failure';
import type { TaskState } from '../model/task-state';
import type { RunSpecState } from '../state/run-spec-state';
import type { InstanceContext } from './instance-context';

/**
 * Remembers a task failure as the run spec's `lastTaskFailure` (one per run spec, the newest wins;
 * forgotten with the run spec). Called for a status update in a failure state and for a kill for
 * failing health checks, which users expect to see there too (marathon-reference §"Health-check
 * confusion", #3423). The message and host are cut to their bounds (TASK_FAILURE_BOUNDS), so what
 * the API shows is what a restart loads. The run spec is marked for {@link flushTaskFailures}: the
 * store is written once per run spec at the end of the input, however many of its tasks failed in it.
 */
export function recordTaskFailure(
  ctx: InstanceContext, rs: RunSpecState, inst: Instance, taskId: string, state: TaskState, message: string, nowMs: number,
): void {
  const agentId = inst.agent?.agentId;
  const failure: TaskFailure = {
    appId: inst.runSpecId,
    host: cutText(inst.agent?.hostname ?? '', TASK_FAILURE_BOUNDS.host),
    message: cutText(message, TASK_FAILURE_BOUNDS.message),
    state,
    taskId,
    timestamp: isoTime(nowMs),
    version: inst.runSpecVersion,
    ...(agentId !== undefined && agentId !== '' ? { slaveId: agentId } : {}),
  };
  rs.lastTaskFailure = failure;
  ctx.state.failuresToWrite.add(rs);
}

/**
 * Writes the last task failure of each run spec that got one during this input, once (Marathon's
 * HistoryActor stores every failure as it comes; one write per run spec per input bounds what a
 * burst of failures costs). Called by the facade at the end of every input, before the instances
 * are written. A run spec that is gone by then (its delete finished, which deleted its failure) is
 * skipped; a failure beyond TASK_FAILURE_BOUNDS is kept in memory only.
 */
export function flushTaskFailures(ctx: InstanceContext): void {
  const pending = ctx.state.failuresToWrite;
  if (pending.size === 0) return;
  for (const rs of pending) {
    const failure = rs.lastTaskFailure;
    if (failure === undefined || ctx.state.runSpecs.get(rs.spec.id) !== rs || !taskFailureFits(failure)) continue;
    ctx.effects.saveTaskFailure(failure);
  }
  pending.clear();
}
