import type { ApiDeps } from '../../api-deps';
import { queryAll, type Query } from '../../query';
import { taskJson } from '../../render/task-json';
import { servicePortsOf } from '../../../scheduler/index';
import type { Condition } from '../../../scheduler/model/condition';

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
  for (const spec of deps.scheduler.runSpecs()) {
    if (spec.kind !== 'app') continue;
    const options = { servicePorts: servicePortsOf(spec) };
    for (const instance of deps.scheduler.instances(spec.id)) {
      if (conditions.size > 0 && !conditions.has(instance.condition)) continue;
      for (const task of instance.tasks) out.push(taskJson(deps, instance, task, options));
    }
  }
  return out;
}
