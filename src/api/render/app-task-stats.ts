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
  readonly startedAtMs: number | undefined;
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
  return taskStatsAt(taskStatsBasis(instances, versionInfo), nowMs);
}

/**
 * What {@link appTaskStats} needs of the instances, for any time: each group's counts and its
 * tasks' start times, latest first (life times shortest first). The API keeps it with the
 * core's token of the app's instances (app-json.ts), so a list of 100,000 tasks does not read,
 * filter and sort them per request; only the life times are taken at each read's `nowMs`.
 */
export interface TaskStatsBasis {
  readonly groups: readonly { readonly name: string; readonly counts: AppTaskCounts; readonly startedDescMs: Float64Array }[];
}

export function taskStatsBasis(instances: readonly Instance[], versionInfo: VersionInfo): TaskStatsBasis {
  const all = counted(instances);
  const lists: [string, readonly Counted[]][] = [
    ['startedAfterLastScaling', all.filter((c) => c.version >= versionInfo.lastScalingAt)],
    ['withLatestConfig', all.filter((c) => c.version >= versionInfo.lastConfigChangeAt)],
    ['withOutdatedConfig', all.filter((c) => c.version < versionInfo.lastConfigChangeAt)],
    ['totalSummary', all],
  ];
  const groups: { name: string; counts: AppTaskCounts; startedDescMs: Float64Array }[] = [];
  for (const [name, list] of lists) {
    if (list.length === 0) continue;
    const started = list.flatMap((c) => (c.startedAtMs === undefined ? [] : [c.startedAtMs])).sort((a, b) => b - a);
    groups.push({ name, counts: countsOf(list), startedDescMs: Float64Array.from(started) });
  }
  return { groups };
}

/** {@link appTaskStats} at `nowMs` from its basis: the same numbers, summed in the same order. */
export function taskStatsAt(basis: TaskStatsBasis, nowMs: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const g of basis.groups) {
    const c = g.counts;
    const counts = { staged: c.tasksStaged, running: c.tasksRunning, healthy: c.tasksHealthy, unhealthy: c.tasksUnhealthy };
    const started = g.startedDescMs;
    if (started.length === 0) {
      out[g.name] = { stats: { counts } };
      continue;
    }
    let sum = 0;
    for (let i = 0; i < started.length; i++) sum += (nowMs - started[i]) / 1000;
    const medianSeconds = (nowMs - started[Math.floor(started.length / 2)]) / 1000;
    out[g.name] = { stats: { counts, lifeTime: { averageSeconds: sum / started.length, medianSeconds } } };
  }
  return out;
}

function counted(instances: readonly Instance[]): Counted[] {
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
      startedAtMs: task.startedAtMs,
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
