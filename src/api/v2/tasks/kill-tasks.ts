import type { ApiDeps } from '../../api-deps';
import { commandError } from '../../command-result';
import { badRequest } from '../../errors';
import { taskJson } from '../../render/task-json';
import { instanceIdOfTask } from '../../../scheduler/index';
import type { Instance } from '../../../scheduler/model/instance';
import type { Command } from '../../../scheduler/model/inputs';
import { type DeploymentResultJson, submitDeployment } from '../deployments/deployment-result';
import { type KillFlags, scaleWithWipe } from './kill-flags';
import { isWellFormedTaskId } from './task-ids-body';

/** What the route answers: the killed tasks, or (kill-and-scale) the deployment. */
export type KillOutcome =
  | { readonly kind: 'tasks'; readonly tasks: Record<string, unknown>[] }
  | { readonly kind: 'deployment'; readonly result: DeploymentResultJson };

/**
 * Kills the app instances the task ids name (fact 58). A malformed id fails the whole request with
 * 400 before anything is killed; well-formed ids that match no instance are skipped, and so are
 * ids of pod containers' tasks: Marathon kills only app tasks here (api/v2/TasksResource.scala
 * killTasks keeps the run specs that are apps, `groupManager.app`; TasksResourceTest.scala:109
 * "try to kill pod instances": 200, nothing killed), and a pod's instances are killed through
 * `DELETE /v2/pods/{id}::instances`. An id names its instance whatever incarnation it carries
 * (Marathon resolves task ids to instance ids).
 * Without `scale` the answer is the killed tasks as they were before the kill; with `scale` one
 * kill-and-scale per affected run spec, the answer being the deployment.
 */
export function killTasks(deps: ApiDeps, ids: readonly string[], flags: KillFlags): KillOutcome {
  if (flags.scale && flags.wipe) throw scaleWithWipe();
  const malformed = ids.find((id) => !isWellFormedTaskId(id));
  if (malformed !== undefined) throw badRequest(`Invalid task id '${malformed}'.`);
  const byRunSpec = instancesByRunSpec(deps, ids);
  return flags.scale ? killAndScale(deps, byRunSpec, flags.force) : killOnly(deps, byRunSpec, flags);
}

function instancesByRunSpec(deps: ApiDeps, ids: readonly string[]): Map<string, Instance[]> {
  const out = new Map<string, Instance[]>();
  for (const id of ids) {
    const instance = deps.scheduler.instance(instanceIdOfTask(id));
    if (instance === undefined || instance.kind !== 'app') continue;
    const list = out.get(instance.runSpecId) ?? [];
    if (!list.includes(instance)) list.push(instance);
    out.set(instance.runSpecId, list);
  }
  return out;
}

function killOnly(deps: ApiDeps, byRunSpec: ReadonlyMap<string, Instance[]>, flags: KillFlags): KillOutcome {
  const tasks: Record<string, unknown>[] = [];
  for (const instances of byRunSpec.values()) {
    for (const instance of instances) for (const task of instance.tasks) tasks.push(taskJson(deps, instance, task));
  }
  // One request, several commands: all are authorized before any runs (refused whole).
  for (const [runSpecId, instances] of byRunSpec) deps.authorize?.(killCommand(runSpecId, instances, flags));
  for (const [runSpecId, instances] of byRunSpec) submitKill(deps, runSpecId, instances, flags);
  return { kind: 'tasks', tasks };
}

/**
 * Kill-and-scale: one deployment for all affected apps, as Marathon makes (fact 58). The core
 * checks every lock first (unless `force`), so a refused request kills nothing. Ids that match
 * nothing still answer a DeploymentResult, as Marathon's does; the core decides that nothing
 * changes then (no deployment, no root version).
 */
function killAndScale(deps: ApiDeps, byRunSpec: ReadonlyMap<string, Instance[]>, force: boolean): KillOutcome {
  const targets = [...byRunSpec].map(([runSpecId, instances]) => ({ runSpecId, instanceIds: instances.map((i) => i.instanceId) }));
  return { kind: 'deployment', result: submitDeployment(deps, { type: 'killAndScale', targets, force }) };
}

function submitKill(deps: ApiDeps, runSpecId: string, instances: readonly Instance[], flags: KillFlags): void {
  const result = deps.submit(killCommand(runSpecId, instances, flags));
  if (!result.ok) throw commandError(result, deps.config.maxRunningDeployments);
}

function killCommand(runSpecId: string, instances: readonly Instance[], flags: KillFlags): Command {
  return {
    type: 'killInstances',
    runSpecId,
    instanceIds: instances.map((i) => i.instanceId),
    scale: flags.scale,
    wipe: flags.wipe,
    force: flags.force,
  };
}
