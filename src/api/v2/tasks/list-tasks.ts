import type { ApiDeps } from '../../api-deps';
import { queryAll, type Query } from '../../query';
import { hasHealthState, plainTaskTextKept, taskJson, taskText } from '../../render/task-json';
import { partsBytes, type ListPiece } from '../../render/list-body-cache';
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
 * costs O(apps), and one app's change costs that app's tasks (issue 13). The unfiltered piece
 * comes with its bytes, and is kept ahead of the reads after its tasks' statuses change
 * (v2/lists-ahead.ts): the first read after a deployment finds the apps kept.
 */
export function listTasksPieces(deps: ApiDeps, conditions: ReadonlySet<Condition>, viewable: (appId: string) => boolean): ListPiece[] {
  const out: ListPiece[] = [];
  const filterKey = conditions.size === 0 ? '' : [...conditions].sort().join(',');
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind !== 'app' || !viewable(spec.id)) continue;
    const piece = appTasksPiece(deps, spec, conditions, filterKey);
    if (piece !== undefined) out.push(piece);
  }
  return out;
}

/**
 * Keeps the unfiltered piece of `spec`'s tasks (what `GET /v2/tasks` without `status` lists of
 * it) for the core's current token of its instances, encoded, as {@link listTasksPieces} would
 * at a read: for the pass that does so ahead of the reads (v2/lists-ahead.ts). Returns how many
 * tasks it looked at (0 when the piece was kept already). An app with health checks is never
 * kept (its results change without a new token): nothing is done for it.
 */
export function keepAppTasksAhead(deps: ApiDeps, spec: RunSpec): number {
  if (spec.kind !== 'app' || spec.healthChecks.length > 0 || appTasksKept(deps, spec)) return 0;
  return appTasksPiece(deps, spec, NO_CONDITIONS, '')?.parts.length ?? 0;
}

/** Whether `spec`'s unfiltered piece is kept for the core's current token of its instances (a read answers it as it is). */
export function appTasksKept(deps: ApiDeps, spec: RunSpec): boolean {
  const token = deps.scheduler.instancesToken(spec.id);
  return token !== undefined && keptAppTasks.get(spec)?.get('')?.token === token;
}

const NO_CONDITIONS: ReadonlySet<Condition> = new Set();

/** One app's piece of {@link listTasksPieces} (undefined: no listed task), kept when it may be. */
function appTasksPiece(deps: ApiDeps, spec: RunSpec & { kind: 'app' }, conditions: ReadonlySet<Condition>, filterKey: string): ListPiece | undefined {
  const token = deps.scheduler.instancesToken(spec.id);
  const byFilter = keptAppTasks.get(spec);
  const kept = byFilter?.get(filterKey);
  if (kept !== undefined && token !== undefined && kept.token === token) return kept.piece;
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
  if (token === undefined || withHealth) {
    byFilter?.delete(filterKey);
    return parts.length > 0 ? { key: spec.id, parts } : undefined;
  }
  // The unfiltered piece is kept encoded too: the answer writes its bytes as they are (list-body-cache.ts).
  const piece = parts.length === 0 ? undefined : filterKey === '' ? { key: spec.id, parts, bytes: partsBytes(parts) } : { key: spec.id, parts };
  if (byFilter === undefined) keptAppTasks.set(spec, new Map([[filterKey, { token, piece }]]));
  else byFilter.set(filterKey, { token, piece });
  return piece;
}

/** An app's piece of the tasks list as it was listed (undefined: no listed task), and the core's token of its instances then. */
interface KeptAppTasks {
  readonly token: object;
  readonly piece: ListPiece | undefined;
}

/**
 * Per app spec object (gone with it) and status filter (at most the four `status` selections):
 * the app's piece of `GET /v2/tasks`, see {@link listTasksPieces}. The unfiltered piece holds
 * its bytes as well: one encoded copy of the unfiltered list, about 400 bytes per task.
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
