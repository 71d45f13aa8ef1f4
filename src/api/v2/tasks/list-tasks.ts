import type { ApiDeps } from '../../api-deps';
import { queryAll, type Query } from '../../query';
import { hasHealthState, plainTaskTextKept, taskJson, taskText } from '../../render/task-json';
import type { ListPiece } from '../../render/list-body-cache';
import { servicePortsOf } from '../../../scheduler/index';
import type { Condition } from '../../../scheduler/model/condition';
import type { Instance, Task } from '../../../scheduler/model/instance';
import type { RunSpec } from '../../../scheduler/model/run-spec';

/** The only `status` values `/v2/tasks` understands (fact 57); the rest are ignored. */
const STATUS_CONDITIONS: Readonly<Record<string, Condition>> = { running: 'Running', staging: 'Staging' };

/**
 * The conditions selected by `?status=` / `?status[]=` (repeatable, case-insensitive). Unknown
 * values are ignored, so a filter of only unknown values selects everything (fact 57).
 */
export function tasksStatusFilter(query: Query): ReadonlySet<Condition> {
  const out = new Set<Condition>();
  for (const v of [...queryAll(query, 'status'), ...queryAll(query, 'status[]')]) {
    const condition = STATUS_CONDITIONS[v.toLowerCase()];
    if (condition !== undefined) out.add(condition);
  }
  return out;
}

/**
 * Every task of every app (fact 57: pod instances are not listed), with `servicePorts` filled
 * (fact 40), keeping instances whose condition is in `conditions` (all when it is empty).
 */
export function listTasksJson(deps: ApiDeps, conditions: ReadonlySet<Condition>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  forEachListedTask(deps, conditions, () => true, (instance, task, servicePorts) => out.push(taskJson(deps, instance, task, { servicePorts })));
  return out;
}

/**
 * {@link listTasksJson} as the JSON text of `{"tasks":[…]}` (the same bytes, from the per-task
 * texts of {@link taskText}), keeping only the tasks of apps `viewable` says the caller may view
 * (authorization: fastify's preSerialization hooks do not see a text answer).
 */
export function listTasksText(deps: ApiDeps, conditions: ReadonlySet<Condition>, viewable: (appId: string) => boolean): string {
  return `${TASKS_PREFIX}${listTasksPieces(deps, conditions, viewable).flatMap((p) => p.parts).join(',')}${TASKS_SUFFIX}`;
}

/** What {@link listTasksText} joins the task texts with. */
export const TASKS_PREFIX = '{"tasks":[';
export const TASKS_SUFFIX = ']}';

/**
 * The texts {@link listTasksText} joins, one piece per app (its tasks' texts, in order; apps
 * without a listed task give no piece): each text the same string object as last time while
 * nothing it shows changed (task-json.ts taskText), which is what lets the route answer a kept
 * encoding and encode again only the apps whose tasks changed (list-body-cache.ts).
 *
 * An app's piece is itself kept ({@link keptAppTasks}) and answered again — the very same array,
 * without reading the app's instances — while the app's spec object and the core's token of its
 * instances (`instancesToken`) are the same, for an app with no health state on any instance (its
 * results change with every probe, without a new token): so a list in which nothing changed
 * costs O(apps), and one app's change costs that app's tasks (issue 13).
 */
export function listTasksPieces(deps: ApiDeps, conditions: ReadonlySet<Condition>, viewable: (appId: string) => boolean): ListPiece[] {
  const out: ListPiece[] = [];
  const filterKey = conditions.size === 0 ? '' : [...conditions].sort().join(',');
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind !== 'app' || !viewable(spec.id)) continue;
    const token = deps.scheduler.instancesToken(spec.id);
    const byFilter = keptAppTasks.get(spec);
    const kept = byFilter?.get(filterKey);
    if (kept !== undefined && token !== undefined && kept.token === token) {
      if (kept.parts.length > 0) out.push({ key: spec.id, parts: kept.parts });
      continue;
    }
    const portsText = JSON.stringify(servicePortsOf(spec));
    const parts: string[] = [];
    let withHealth = spec.healthChecks.length > 0;
    for (const instance of deps.scheduler.instances(spec.id)) {
      if (conditions.size > 0 && !conditions.has(instance.condition)) continue;
      if (instance.tasks.length === 0) continue;
      // The check state looked up once per instance: none (most) gives the kept texts as they are.
      if (hasHealthState(deps, instance)) {
        withHealth = true;
        for (const task of instance.tasks) parts.push(taskText(deps, instance, task, portsText));
      } else {
        for (const task of instance.tasks) parts.push(plainTaskTextKept(instance, task, portsText));
      }
    }
    if (parts.length > 0) out.push({ key: spec.id, parts });
    if (token === undefined || withHealth) {
      byFilter?.delete(filterKey);
      continue;
    }
    if (byFilter === undefined) keptAppTasks.set(spec, new Map([[filterKey, { token, parts }]]));
    else byFilter.set(filterKey, { token, parts });
  }
  return out;
}

/** An app's task texts as one list listed them, and the core's token of its instances then. */
interface KeptAppTasks {
  readonly token: object;
  readonly parts: string[];
}

/**
 * Per app spec object (gone with it) and status filter (at most the four `status` selections):
 * the app's piece of `GET /v2/tasks`, see {@link listTasksPieces}.
 */
const keptAppTasks = new WeakMap<RunSpec, Map<string, KeptAppTasks>>();

/** The tasks `GET /v2/tasks` lists, in its order, with their app's service ports (one array per app). */
function forEachListedTask(
  deps: ApiDeps, conditions: ReadonlySet<Condition>, viewable: (appId: string) => boolean,
  fn: (instance: Instance, task: Task, servicePorts: readonly number[]) => void,
): void {
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind !== 'app' || !viewable(spec.id)) continue;
    const servicePorts = servicePortsOf(spec);
    for (const instance of deps.scheduler.instances(spec.id)) {
      if (conditions.size > 0 && !conditions.has(instance.condition)) continue;
      for (const task of instance.tasks) fn(instance, task, servicePorts);
    }
  }
}
