import type { ApiDeps } from '../../api-deps';
import { queryAll, type Query } from '../../query';
import { taskJson, taskText } from '../../render/task-json';
import type { ListPiece } from '../../render/list-body-cache';
import { servicePortsOf } from '../../../scheduler/index';
import type { Condition } from '../../../scheduler/model/condition';
import type { Instance, Task } from '../../../scheduler/model/instance';

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
 */
export function listTasksPieces(deps: ApiDeps, conditions: ReadonlySet<Condition>, viewable: (appId: string) => boolean): ListPiece[] {
  const out: { readonly key: string; readonly parts: string[] }[] = [];
  let portsOf: readonly number[] | undefined;
  let portsText = '';
  forEachListedTask(deps, conditions, viewable, (instance, task, servicePorts) => {
    if (servicePorts !== portsOf) {
      portsOf = servicePorts;
      portsText = JSON.stringify(servicePorts);
    }
    if (out.length === 0 || out[out.length - 1].key !== instance.runSpecId) out.push({ key: instance.runSpecId, parts: [] });
    out[out.length - 1].parts.push(taskText(deps, instance, task, servicePorts, portsText));
  });
  return out;
}

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
