import type { ApiDeps } from '../api-deps';
import type { AppSpec } from '../../scheduler/model/app';
import { appDefinitionJson } from '../../marathon/render/app-definition-json';
import { resolveAppEmbed } from './app-embed';
import { appTaskCounts, appTaskStats } from './app-task-stats';
import { instancesTasksJson } from './task-json';

/**
 * Marathon's app JSON (`AppInfo`, facts 18, 35–38): the app as Marathon's app writer writes it
 * ({@link appDefinitionJson}: every default, `version`, `versionInfo`, empty and unset fields left
 * out), then what `embed` asks for:
 *
 * - `counts` → `tasksStaged`, `tasksRunning`, `tasksHealthy`, `tasksUnhealthy`;
 * - `deployments` → `deployments: [{id}]`, the running deployments that touch the app;
 * - `readiness` → `readinessCheckResults`, one per instance with a readiness check
 *   (`{name, taskId, ready, lastResponse}`, the core's results; `[]` without a check);
 * - `tasks` → `tasks` (fact 40, app-scoped: `servicePorts: []`);
 * - `lastTaskFailure` → `lastTaskFailure`, only when the core recorded a failure (Marathon's
 *   `TaskFailure`: `appId, host, message, state, taskId, timestamp, version, slaveId`);
 * - `taskStats` → `tasksStats` (Marathon's spelling).
 *
 * `embed` values may carry the `apps.`, `app.` or `group.apps.` prefix; `tasks` brings
 * `deployments` along and `failures` stands for tasks + lastTaskFailure + deployments
 * ({@link resolveAppEmbed}). The routes add the defaults of
 * each endpoint (the list always has counts and deployments, a single app also tasks and
 * lastTaskFailure); the groups view passes only what its `embed` asked for.
 *
 * `deployments` may be given when many apps are rendered at once ({@link deploymentIdsByApp},
 * computed once per request), so the running deployments are not inspected per app.
 */
export function appJson(
  deps: ApiDeps, spec: AppSpec, embed: ReadonlySet<string>, deployments?: ReadonlyMap<string, readonly string[]>,
): Record<string, unknown> {
  const want = resolveAppEmbed(embed);
  const json = appDefinitionJson(spec);
  const instances = want.has('counts') || want.has('taskStats') || want.has('tasks') ? deps.scheduler.instances(spec.id) : [];
  if (want.has('counts')) Object.assign(json, appTaskCounts(instances));
  if (want.has('deployments')) {
    const ids = (deployments ?? deploymentIdsByApp(deps)).get(spec.id) ?? [];
    json.deployments = ids.map((id) => ({ id }));
  }
  if (want.has('readiness')) json.readinessCheckResults = deps.scheduler.readiness(spec.id).map((r) => ({ ...r }));
  if (want.has('tasks')) json.tasks = instancesTasksJson(deps, instances);
  if (want.has('lastTaskFailure')) {
    const failure = deps.scheduler.lastTaskFailure(spec.id);
    if (failure !== undefined) json.lastTaskFailure = { ...failure };
  }
  if (want.has('taskStats')) json.tasksStats = appTaskStats(instances, spec.versionInfo, deps.clock.nowMs());
  return json;
}

/**
 * Several apps' JSON with the same `embed`: the running deployments are looked at once for the
 * whole list (and only when `deployments` is embedded), not once per app.
 */
export function appsJson(deps: ApiDeps, apps: readonly AppSpec[], embed: ReadonlySet<string>): Record<string, unknown>[] {
  const deployments = resolveAppEmbed(embed).has('deployments') ? deploymentIdsByApp(deps) : undefined;
  return apps.map((app) => appJson(deps, app, embed, deployments));
}

/** For every run spec a running deployment changes, the ids of those deployments (an app's `deployments`). */
export function deploymentIdsByApp(deps: ApiDeps): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const plan of deps.scheduler.runningPlans()) {
    for (const id of plan.affectedRunSpecIds) {
      const list = out.get(id);
      if (list === undefined) out.set(id, [plan.id]);
      else list.push(plan.id);
    }
  }
  return out;
}
