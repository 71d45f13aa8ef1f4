import type { Instance, Task } from '../../scheduler/model/instance';
import type { VersionInfo } from '../../scheduler/model/run-spec';

/** `tasksStaged`, `tasksRunning`, `tasksHealthy`, `tasksUnhealthy` of an app (facts 18, 35). */
export interface AppTaskCounts {
  readonly tasksStaged: number;
  readonly tasksRunning: number;
  readonly tasksHealthy: number;
  readonly tasksUnhealthy: number;
}

/** One launched instance as the statistics see it. */
interface Counted {
  readonly version: string;
  readonly staged: boolean;
  readonly running: boolean;
  readonly healthy: boolean;
  readonly unhealthy: boolean;
  readonly lifeTimeSeconds?: number;
}

/**
 * The counts Marathon writes on every app (fact 35), over instances that have a task (instances
 * waiting for an offer are not counted): staged = no status yet or TASK_STAGING, running =
 * TASK_RUNNING, healthy / unhealthy = instance health known and passing / failing (instances
 * without health information count as neither).
 */
export function appTaskCounts(instances: readonly Instance[]): AppTaskCounts {
  // The same rule as countsOf(counted(…)), without an object per instance: every app of
  // `GET /v2/apps` is counted on every request.
  let tasksStaged = 0;
  let tasksRunning = 0;
  let tasksHealthy = 0;
  let tasksUnhealthy = 0;
  for (let i = 0; i < instances.length; i++) {
    const inst = instances[i];
    const task = currentTask(inst);
    if (inst.condition === 'Scheduled' || task === undefined) continue;
    if (isStaged(task)) tasksStaged++;
    if (isRunning(task)) tasksRunning++;
    if (inst.healthy === true) tasksHealthy++;
    if (inst.healthy === false) tasksUnhealthy++;
  }
  return { tasksStaged, tasksRunning, tasksHealthy, tasksUnhealthy };
}

/**
 * Marathon's `tasksStats` (`embed=apps.taskStats`, fact 36): counts and life times of all launched
 * instances (`totalSummary`), of those running a version at or after the last scaling
 * (`startedAfterLastScaling`) or the last config change (`withLatestConfig`), and of those on an
 * older config (`withOutdatedConfig`). A group without instances is left out. Life times are
 * seconds since each task started, at `nowMs`.
 */
export function appTaskStats(
  instances: readonly Instance[], versionInfo: VersionInfo, nowMs: number,
): Record<string, unknown> {
  const all = counted(instances, nowMs);
  const groups: Record<string, readonly Counted[]> = {
    startedAfterLastScaling: all.filter((c) => c.version >= versionInfo.lastScalingAt),
    withLatestConfig: all.filter((c) => c.version >= versionInfo.lastConfigChangeAt),
    withOutdatedConfig: all.filter((c) => c.version < versionInfo.lastConfigChangeAt),
    totalSummary: all,
  };
  const out: Record<string, unknown> = {};
  for (const [name, list] of Object.entries(groups)) {
    if (list.length > 0) out[name] = { stats: statsOf(list) };
  }
  return out;
}

function counted(instances: readonly Instance[], nowMs: number): Counted[] {
  const out: Counted[] = [];
  for (const inst of instances) {
    const task = currentTask(inst);
    if (inst.condition === 'Scheduled' || task === undefined) continue;
    out.push({
      version: inst.runSpecVersion,
      staged: isStaged(task),
      running: isRunning(task),
      healthy: inst.healthy === true,
      unhealthy: inst.healthy === false,
      ...(task.startedAtMs !== undefined ? { lifeTimeSeconds: (nowMs - task.startedAtMs) / 1000 } : {}),
    });
  }
  return out;
}

/** Staged: no status yet, or TASK_STAGING. */
function isStaged(task: Task): boolean {
  return task.state === undefined || task.state === 'TASK_STAGING';
}

function isRunning(task: Task): boolean {
  return task.state === 'TASK_RUNNING';
}

function currentTask(inst: Instance): Task | undefined {
  return inst.tasks[inst.tasks.length - 1];
}

function countsOf(list: readonly Counted[]): AppTaskCounts {
  return {
    tasksStaged: list.filter((c) => c.staged).length,
    tasksRunning: list.filter((c) => c.running).length,
    tasksHealthy: list.filter((c) => c.healthy).length,
    tasksUnhealthy: list.filter((c) => c.unhealthy).length,
  };
}

function statsOf(list: readonly Counted[]): Record<string, unknown> {
  const c = countsOf(list);
  const counts = { staged: c.tasksStaged, running: c.tasksRunning, healthy: c.tasksHealthy, unhealthy: c.tasksUnhealthy };
  const lifeTimes = list.flatMap((x) => (x.lifeTimeSeconds === undefined ? [] : [x.lifeTimeSeconds])).sort((a, b) => a - b);
  if (lifeTimes.length === 0) return { counts };
  const averageSeconds = lifeTimes.reduce((sum, v) => sum + v, 0) / lifeTimes.length;
  return { counts, lifeTime: { averageSeconds, medianSeconds: lifeTimes[Math.floor(lifeTimes.length / 2)] } };
}
