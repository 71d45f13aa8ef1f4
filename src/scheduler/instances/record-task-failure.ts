import { isoTime } from '../kernel/iso-time';
import type { Instance } from '../model/instance';
import type { TaskFailure } from '../model/task-failure';
import type { TaskState } from '../model/task-state';
import type { RunSpecState } from '../state/run-spec-state';

/**
 * Remembers a task failure as the run spec's `lastTaskFailure` (one per run spec, the newest wins;
 * forgotten with the run spec). Called for a status update in a failure state and for a kill for
 * failing health checks, which users expect to see there too (marathon-reference §"Health-check
 * confusion", #3423).
 */
export function recordTaskFailure(
  rs: RunSpecState, inst: Instance, taskId: string, state: TaskState, message: string, nowMs: number,
): void {
  const agentId = inst.agent?.agentId;
  const failure: TaskFailure = {
    appId: inst.runSpecId,
    host: inst.agent?.hostname ?? '',
    message,
    state,
    taskId,
    timestamp: isoTime(nowMs),
    version: inst.runSpecVersion,
    ...(agentId !== undefined && agentId !== '' ? { slaveId: agentId } : {}),
  };
  rs.lastTaskFailure = failure;
}
