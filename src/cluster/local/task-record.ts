import type { TaskLaunch } from '../../scheduler/model/launch';
import type { TaskRecord } from './state-file';
import { taskEnv } from './task-env';

/**
 * The record of a task about to start (TASK_STAGING, no process yet): everything needed to
 * supervise it and, after a restart, to adopt it again without the launch (which is not
 * persisted).
 */
export function newTaskRecord(t: TaskLaunch, sandbox: string, launchedAtMs: number): TaskRecord {
  return {
    taskId: t.taskId,
    runSpecId: t.runSpecId,
    instanceId: t.instanceId,
    ...(t.containerName === undefined ? {} : { containerName: t.containerName }),
    sandbox,
    hostPorts: t.hostPorts,
    resources: t.resources,
    killGracePeriodMs: t.killGracePeriodMs,
    launchedAtMs,
    ...(t.healthCheck === undefined ? {} : { healthCheck: t.healthCheck }),
    ...(t.check === undefined ? {} : { check: t.check }),
    env: taskEnv(t, sandbox),
    state: 'TASK_STAGING',
  };
}
