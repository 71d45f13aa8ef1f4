import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { segments } from '../../../scheduler/index';
import { routeNotFound } from '../../errors';
import { queryOf, type Query } from '../../query';
import { createApp } from './app-create';
import { deleteApp, restartApp } from './app-delete';
import { findApp } from './app-lookup';
import { APPS_PREFIX, APPS_SUFFIX, listAppsPieces, showAppText, showGroupApps } from './app-read';
import { ListBodyCache, sendListBody } from '../../render/list-body-cache';
import { renderAppDefinitionsAhead } from '../../render/app-definition-ahead';
import { type AppTarget, type AppTargetKind, parseAppTarget } from './app-target';
import { appTasksText, groupTasks, killAppTask, killAppTasks } from './app-tasks';
import { updateApp, updateApps } from './app-update';
import { appVersion, appVersions } from './app-versions';

const GET_KINDS = new Set<AppTargetKind>(['groupApps', 'tasks', 'groupTasks', 'versions', 'version']);
const DELETE_KINDS = new Set<AppTargetKind>(['tasks', 'task']);
const POST_KINDS = new Set<AppTargetKind>(['restart']);
const NO_KINDS = new Set<AppTargetKind>();
/** What fastify writes for a serialized object: text answers say the same. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The `/v2/apps` routes (marathon-api-facts.md sections B–D). App ids contain slashes, so every
 * route below `/v2/apps/` is one wildcard per method whose rest is parsed into the app and its
 * sub-resource ({@link parseAppTarget}).
 */
export function appsRoutes(app: FastifyInstance, deps: ApiDeps): void {
  // The encoded answer, kept per query; only the apps whose text changed are encoded again (list-body-cache.ts).
  const bodies = new ListBodyCache();
  // Compression on: a client that accepts gzip gets the gzip kept beside the answer.
  const gzips = deps.config.httpCompression === false ? undefined : bodies;
  // App definitions rendered when their deployment starts, so the first read after it does not render them all.
  const stopRendering = renderAppDefinitionsAhead(deps);
  app.addHook('onClose', async () => stopRendering());
  app.get('/v2/apps', (request, reply) => {
    const access = request.access;
    const pieces = listAppsPieces(deps, request.query as Query, access === null ? undefined : (id) => access.may('ViewRunSpec', id));
    return sendListBody(reply, bodies.body(queryOf(request.url), APPS_PREFIX, pieces, APPS_SUFFIX), gzips);
  });
  app.post('/v2/apps', (request, reply) => createApp(deps, request, reply));
  app.put('/v2/apps', (request, reply) => updateApps(deps, request, reply, false));
  app.patch('/v2/apps', (request, reply) => updateApps(deps, request, reply, true));
  app.get('/v2/apps/*', (request, reply) => get(deps, request, reply, target(deps, request, GET_KINDS)));
  app.put('/v2/apps/*', (request, reply) => updateApp(deps, request, reply, appIdOf(deps, request), false));
  app.patch('/v2/apps/*', (request, reply) => updateApp(deps, request, reply, appIdOf(deps, request), true));
  app.delete('/v2/apps/*', (request, reply) => remove(deps, request, reply, target(deps, request, DELETE_KINDS)));
  // Only `…/restart` is POSTed below an app: POST elsewhere is 405 (route-methods.ts).
  const servesPath = (rest: string): boolean => segments(rest).at(-1) === 'restart';
  app.post('/v2/apps/*', { config: { servesPath } }, (request, reply) => post(deps, request, reply, target(deps, request, POST_KINDS)));
}

function get(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, t: AppTarget): unknown {
  const query = request.query as Query;
  switch (t.kind) {
    case 'groupApps': return showGroupApps(deps, t.groupId, query);
    // One app and its tasks are answered as JSON text (their tasks from kept texts; authorization
    // checked the app before: appRead in authz/route-rules.ts, and nothing in them is filtered).
    case 'tasks': return reply.type(JSON_TYPE).send(appTasksText(deps, t.appId));
    case 'groupTasks': return groupTasks(deps, t.groupId);
    case 'versions': return appVersions(deps, t.appId);
    case 'version': return appVersion(deps, t.appId, t.version);
    default: return reply.type(JSON_TYPE).send(showAppText(deps, appIdOfTarget(t), query));
  }
}

function remove(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, t: AppTarget): FastifyReply {
  switch (t.kind) {
    case 'tasks': return killAppTasks(deps, request, reply, t.appId);
    case 'task': return killAppTask(deps, request, reply, t.appId, t.taskId);
    default: return deleteApp(deps, request, reply, appIdOfTarget(t));
  }
}

function post(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, t: AppTarget): FastifyReply {
  if (t.kind === 'restart') return restartApp(deps, request, reply, t.appId);
  throw routeNotFound(request.method, request.url);
}

function target(deps: ApiDeps, request: FastifyRequest, kinds: ReadonlySet<AppTargetKind>): AppTarget {
  return parseAppTarget(wildcard(request), kinds, (id) => findApp(deps, id) !== undefined);
}

function appIdOf(deps: ApiDeps, request: FastifyRequest): string {
  return appIdOfTarget(target(deps, request, NO_KINDS));
}

function appIdOfTarget(t: AppTarget): string {
  return 'appId' in t ? t.appId : t.groupId;
}

function wildcard(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}
