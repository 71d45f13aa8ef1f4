import type { ApiDeps } from '../../api-deps';
import { commandError, expectOk } from '../../command-result';
import { badRequest, locked, type ApiError } from '../../errors';
import { taskJson } from '../../render/task-json';
import { instanceIdOfTask } from '../../../scheduler/kernel/ids';
import type { Instance } from '../../../scheduler/model/instance';
import { isWellFormedTaskId } from './task-ids-body';

/** The flags of `POST /v2/tasks/delete`. */
export interface KillFlags {
  readonly scale: boolean;
  readonly wipe: boolean;
  readonly force: boolean;
}

/** What the route answers: the killed tasks, or (kill-and-scale) the deployment. */
export type KillOutcome =
  | { readonly kind: 'tasks'; readonly tasks: Record<string, unknown>[] }
  | { readonly kind: 'deployment'; readonly deploymentId: string; readonly version: string };

/**
 * Kills the instances the task ids name (fact 58). A malformed id fails the whole request with
 * 400 before anything is killed; well-formed ids that match no instance are skipped. An id names
 * its instance whatever incarnation it carries (Marathon resolves task ids to instance ids).
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

/** Fact 55: `scale` and `wipe` together → 400. */
export function scaleWithWipe(): ApiError {
  return badRequest('You cannot use scale and wipe at the same time.');
}

function instancesByRunSpec(deps: ApiDeps, ids: readonly string[]): Map<string, Instance[]> {
  const out = new Map<string, Instance[]>();
  for (const id of ids) {
    const instance = deps.scheduler.instance(instanceIdOfTask(id));
    if (instance === undefined) continue;
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
  for (const [runSpecId, instances] of byRunSpec) submitKill(deps, runSpecId, instances, flags);
  return { kind: 'tasks', tasks };
}

/**
 * Kill-and-scale. Marathon makes one deployment for all affected apps; the core scales one run
 * spec per command, so several apps give several deployments (the answer names the last). Locks
 * are checked for all of them first, so a refused request kills nothing. Ids that match nothing
 * still answer with a deployment, one without steps, as Marathon's does.
 */
function killAndScale(deps: ApiDeps, byRunSpec: ReadonlyMap<string, Instance[]>, force: boolean): KillOutcome {
  if (!force) refuseLocked(deps, [...byRunSpec.keys()]);
  let last = byRunSpec.size === 0 ? expectOk(deps.submit({ type: 'deploy', root: deps.scheduler.root() }), deps.config.maxRunningDeployments) : undefined;
  for (const [runSpecId, instances] of byRunSpec) {
    last = submitKill(deps, runSpecId, instances, { scale: true, wipe: false, force });
  }
  return { kind: 'deployment', deploymentId: last?.deploymentId ?? '', version: last?.version ?? deps.scheduler.root().version };
}

/** Fact 7: a kill-and-scale touching a run spec held by a running deployment, without force → 409. */
function refuseLocked(deps: ApiDeps, runSpecIds: readonly string[]): void {
  const holding = deps.scheduler.deployments()
    .filter(({ deployment }) => deployment.plan.affectedRunSpecIds.some((id) => runSpecIds.includes(id)))
    .map(({ deployment }) => deployment.plan.id);
  if (holding.length > 0) throw locked(holding);
}

function submitKill(deps: ApiDeps, runSpecId: string, instances: readonly Instance[], flags: KillFlags): { deploymentId?: string; version?: string } {
  const result = deps.submit({
    type: 'killInstances',
    runSpecId,
    instanceIds: instances.map((i) => i.instanceId),
    scale: flags.scale,
    wipe: flags.wipe,
    force: flags.force,
  });
  if (!result.ok) throw commandError(result, deps.config.maxRunningDeployments);
  return result;
}
