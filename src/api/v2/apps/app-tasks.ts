import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { expectOk } from '../../command-result';
import { notFound, notFoundBare, notFoundText } from '../../errors';
import { queryOne, type Query } from '../../query';
import { isActiveCondition } from '../../../scheduler/model/condition';
import { appTasksJson, instancesTasksText, taskJson } from '../../render/task-json';
import type { Instance } from '../../../scheduler/model/instance';
import { instanceIdOfTask } from '../../../scheduler/index';
import { appsBelow, findApp, findAppGroup } from './app-lookup';
import { sendDeploymentResult, submitDeployment } from '../deployments/deployment-result';
import { type KillFlags, killFlagsOf } from '../tasks/kill-flags';

/** `GET /v2/apps/{id}/tasks` (fact 53): `{"tasks":[…]}`; unknown app → 404 with `details: []`. */
export function appTasks(deps: ApiDeps, appId: string): { tasks: Record<string, unknown>[] } {
  if (findApp(deps, appId) === undefined) throw notFound(notFoundText.app(appId));
  return { tasks: appTasksJson(deps, appId) };
}

/** {@link appTasks} as JSON text, byte for byte (the route's answer; the tasks from their kept texts). */
export function appTasksText(deps: ApiDeps, appId: string): string {
  if (findApp(deps, appId) === undefined) throw notFound(notFoundText.app(appId));
  return `{"tasks":${instancesTasksText(deps, deps.scheduler.instances(appId))}}`;
}

/** `GET /v2/apps/{group}/*\/tasks` (fact 53): the tasks of every app below the group. */
export function groupTasks(deps: ApiDeps, groupId: string): { tasks: Record<string, unknown>[] } {
  const group = findAppGroup(deps, groupId);
  if (group === undefined) throw notFound(notFoundText.group(groupId));
  return { tasks: appsBelow(group).flatMap((app) => appTasksJson(deps, app.id)) };
}

/**
 * `DELETE /v2/apps/{id}/tasks?host=&scale=&wipe=&force=` (fact 56): kills the app's tasks on
 * `host` (`*` or no host: all of them). With `scale` the app is scaled down by the number killed
 * and the answer is `{version, deploymentId}`; otherwise `{"tasks":[…]}` as they were before the
 * kill. `wipe` forgets the instances (fresh ones replace them).
 */
export function killAppTasks(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, appId: string): FastifyReply {
  const query = request.query as Query;
  const flags = killFlagsOf(query);
  requireApp(deps, appId, flags);
  const host = queryOne(query, 'host');
  const found = deps.scheduler.instances(appId).filter((i) => host === undefined || host === '*' || i.agent?.hostname === host);
  if (flags.scale) return killAndScale(deps, reply, appId, found, flags);
  const tasks = found.flatMap((i) => currentTaskJson(deps, i) ?? []);
  kill(deps, appId, found, flags);
  return reply.send({ tasks });
}

/**
 * `DELETE /v2/apps/{id}/tasks/{taskId}` (facts 54, 55): kills the instance of that task. Without
 * `scale` → `{"task":{…}}` (the task before the kill; the instance is relaunched, or replaced
 * with `wipe`); a task id that matches nothing → 404 `Task '<id>' does not exist`. With `scale` →
 * `{version, deploymentId}` and `instances` lowered by one.
 */
export function killAppTask(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, appId: string, taskId: string): FastifyReply {
  const flags = killFlagsOf(request.query as Query);
  requireApp(deps, appId, flags);
  const instanceId = instanceIdOfTask(taskId);
  const found = deps.scheduler.instances(appId).filter((i) => i.instanceId === instanceId);
  if (flags.scale) return killAndScale(deps, reply, appId, found, flags);
  const task = found.length > 0 ? currentTaskJson(deps, found[0]) : undefined;
  if (task === undefined) throw notFound(notFoundText.task(taskId));
  kill(deps, appId, found, flags);
  return reply.send({ task });
}

/** Unknown app: kill-and-scale raises `Path '/x' does not exist` (fact 2); a plain kill answers fact 1's 404. */
function requireApp(deps: ApiDeps, appId: string, flags: KillFlags): void {
  if (findApp(deps, appId) !== undefined) return;
  throw flags.scale ? notFoundBare(notFoundText.path(appId)) : notFound(notFoundText.app(appId));
}

function killAndScale(deps: ApiDeps, reply: FastifyReply, appId: string, found: readonly Instance[], flags: KillFlags): FastifyReply {
  const instanceIds = found.filter((i) => isActiveCondition(i.condition)).map((i) => i.instanceId);
  const started = submitDeployment(deps, { type: 'killInstances', runSpecId: appId, instanceIds, scale: true, wipe: false, force: flags.force });
  return sendDeploymentResult(reply, started);
}

/** Kills the active instances among `found` (all of them with `wipe`: they are forgotten too). */
function kill(deps: ApiDeps, appId: string, found: readonly Instance[], flags: KillFlags): void {
  const instanceIds = found.filter((i) => flags.wipe || isActiveCondition(i.condition)).map((i) => i.instanceId);
  if (instanceIds.length === 0) return;
  expectOk(deps.submit({ type: 'killInstances', runSpecId: appId, instanceIds, scale: false, wipe: flags.wipe }), deps.config.maxRunningDeployments);
}

function currentTaskJson(deps: ApiDeps, instance: Instance): Record<string, unknown> | undefined {
  const task = instance.tasks[instance.tasks.length - 1];
  return task === undefined ? undefined : taskJson(deps, instance, task);
}
