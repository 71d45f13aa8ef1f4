import type { FastifyRequest } from 'fastify';
import { notAuthorized } from '../errors';
import { parseAppTarget, type AppTargetKind } from '../v2/apps/app-target';
import { groupGetTarget, groupIdOf } from '../v2/groups/group-path';
import { targetGroupId } from '../v2/groups/group-write-handlers';
import { podTargetOf } from '../v2/pods/pod-target';
import type { ApiDeps } from '../api-deps';
import { queryAll, type Query } from '../query';
import { findGroup } from '../../scheduler/index';
import type { AuthorizedAction } from './authorized-action';
import type { Access } from './policy';
import { appsOrTasks, deployments, groupTree, queue, runSpecArray, type WireFilter } from './wire-filters';

/**
 * How one route is authorized (Marathon's resources, cited per rule):
 * - `any`: every authenticated caller (the UI's files; `/v2/events`, filtered per event);
 * - `resource`: a system resource action (`ViewResource`/`UpdateResource`, granted at `/`);
 * - `runSpecs`: the route's run specs and groups: `before` refuses a single resource the caller
 *   may not view (403) before the handler runs, `filter` trims list answers, and every command the
 *   handler submits is checked by `authorizedDeps`.
 */
export type RouteRule =
  | { readonly kind: 'any' }
  | { readonly kind: 'resource'; readonly action: AuthorizedAction }
  | { readonly kind: 'runSpecs'; readonly before?: Before; readonly filter?: WireFilter };

/** Checks a request before its handler; throws Marathon's 403. */
export type Before = (access: Access, request: FastifyRequest, deps: ApiDeps) => void;

function wildcard(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}

function demand(access: Access, action: AuthorizedAction, path: string): void {
  if (!access.may(action, path)) throw notAuthorized();
}

const APP_GET_KINDS = new Set<AppTargetKind>(['groupApps', 'tasks', 'groupTasks', 'versions', 'version']);

/** `GET /v2/apps/…`: an app, its tasks or versions need ViewRunSpec (AppsResource.show, AppTasksResource, AppVersionsResource). */
const appRead: Before = (access, request, deps) => {
  const t = parseAppTarget(wildcard(request), APP_GET_KINDS, (id) => deps.scheduler.runSpec(id) !== undefined);
  if ('appId' in t) demand(access, 'ViewRunSpec', t.appId);
};

/** `GET /v2/pods/<id>[::status|::versions[/v]]`: ViewRunSpec (PodsResource.find, status, versions). */
const podRead: Before = (access, request) => {
  const t = podTargetOf(wildcard(request));
  if ('id' in t) demand(access, 'ViewRunSpec', t.id);
};

/**
 * `GET /v2/groups/…`: a group is shown when the caller may view it or something below it (the
 * root always, filtered: GroupsResource answers an empty root); its versions need ViewGroup.
 */
const groupRead: Before = (access, request) => {
  const t = groupGetTarget(wildcard(request));
  if (t.kind === 'group' && t.groupId !== '/' && !access.seesGroup(t.groupId)) throw notAuthorized();
  if (t.kind === 'versions' || t.kind === 'version') demand(access, 'ViewGroup', t.groupId);
};

/**
 * Group writes check the group they change as GroupsResource/GroupApiService do (PUT and PATCH:
 * UpdateGroup, or CreateGroup for a new group; POST: CreateGroup; DELETE: DeleteGroup), then
 * every run spec the new root touches (`authorizedDeps`). The group of a POST or PUT is Marathon's
 * `effectivePath`: the body's `id` resolved against the URL's group (the handler's own rule).
 */
function groupWrite(method: 'PUT' | 'POST' | 'DELETE' | 'PATCH'): Before {
  return (access, request, deps) => {
    const body = request.body as { id?: unknown } | null | undefined;
    const bodyId = (method === 'PUT' || method === 'POST') && typeof body === 'object' && body !== null && typeof body.id === 'string' ? body.id : undefined;
    const groupId = bodyId === undefined ? groupIdOf(wildcard(request)) : targetGroupId(wildcard(request), { id: bodyId });
    const exists = findGroup(deps.scheduler.root(), groupId) !== undefined;
    const action: AuthorizedAction = method === 'DELETE' ? 'DeleteGroup' : method === 'POST' || !exists ? 'CreateGroup' : 'UpdateGroup';
    demand(access, action, groupId);
  };
}

/**
 * `GET /v2/capacity?app=/id` simulates scaling the app up: it needs what the scale would,
 * UpdateRunSpec on the app (or pod); a request naming neither is left to the handler's 400.
 */
const capacityRead: Before = (access, request) => {
  const query = request.query as Query;
  const ids = [...queryAll(query, 'app'), ...queryAll(query, 'pod')];
  if (ids.length !== 1) return;
  const raw = ids[0].trim();
  demand(access, 'UpdateRunSpec', raw.startsWith('/') ? raw : `/${raw}`);
};

const RUN_SPECS: RouteRule = { kind: 'runSpecs' };
const VIEW_RESOURCE: RouteRule = { kind: 'resource', action: 'ViewResource' };
const ANY: RouteRule = { kind: 'any' };

/**
 * Every route of the API, `METHOD url` as fastify's route table spells it (HEAD uses GET's rule).
 * A route missing here is refused to everyone without `UpdateResource` (fails closed); the
 * every-route test compares this table with fastify's.
 */
export const ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  'GET /v2/apps': { kind: 'runSpecs', filter: appsOrTasks },
  'GET /v2/apps/*': { kind: 'runSpecs', before: appRead, filter: appsOrTasks },
  'POST /v2/apps': RUN_SPECS,
  'PUT /v2/apps': RUN_SPECS,
  'PATCH /v2/apps': RUN_SPECS,
  'PUT /v2/apps/*': RUN_SPECS,
  'PATCH /v2/apps/*': RUN_SPECS,
  'DELETE /v2/apps/*': RUN_SPECS,
  'POST /v2/apps/*': RUN_SPECS,
  'GET /v2/pods': { kind: 'runSpecs', filter: runSpecArray },
  'GET /v2/pods/*': { kind: 'runSpecs', before: podRead, filter: runSpecArray },
  'POST /v2/pods': RUN_SPECS,
  'PUT /v2/pods/*': RUN_SPECS,
  'DELETE /v2/pods/*': RUN_SPECS,
  'GET /v2/groups': { kind: 'runSpecs', before: groupRead, filter: groupTree },
  'GET /v2/groups/*': { kind: 'runSpecs', before: groupRead, filter: groupTree },
  'POST /v2/groups': { kind: 'runSpecs', before: groupWrite('POST') },
  'POST /v2/groups/*': { kind: 'runSpecs', before: groupWrite('POST') },
  'PUT /v2/groups': { kind: 'runSpecs', before: groupWrite('PUT') },
  'PUT /v2/groups/*': { kind: 'runSpecs', before: groupWrite('PUT') },
  'PATCH /v2/groups/*': { kind: 'runSpecs', before: groupWrite('PATCH') },
  'DELETE /v2/groups': { kind: 'runSpecs', before: groupWrite('DELETE') },
  'DELETE /v2/groups/*': { kind: 'runSpecs', before: groupWrite('DELETE') },
  'GET /v2/deployments': { kind: 'runSpecs', filter: deployments },
  'DELETE /v2/deployments/:id': RUN_SPECS,
  'GET /v2/tasks': { kind: 'runSpecs', filter: appsOrTasks },
  'POST /v2/tasks/delete': RUN_SPECS,
  'GET /v2/queue': { kind: 'runSpecs', filter: queue },
  'DELETE /v2/queue/*': RUN_SPECS,
  // InfoResource, LeaderResource, SystemResource (metrics): ViewResource / UpdateResource.
  'GET /v2/info': VIEW_RESOURCE,
  'GET /v2/leader': VIEW_RESOURCE,
  // PluginsResource: ViewResource for the list and a plugin's GET/HEAD; Marathon asks Create/Update/Delete on the
  // plugins for a plugin's POST/PUT/DELETE, which pacer's system resources grant as UpdateResource.
  'GET /v2/plugins': VIEW_RESOURCE,
  'GET /v2/plugins/*': VIEW_RESOURCE,
  'PUT /v2/plugins/*': { kind: 'resource', action: 'UpdateResource' },
  'POST /v2/plugins/*': { kind: 'resource', action: 'UpdateResource' },
  'DELETE /v2/plugins/*': { kind: 'resource', action: 'UpdateResource' },
  'DELETE /v2/leader': { kind: 'resource', action: 'UpdateResource' },
  'GET /metrics': VIEW_RESOURCE,
  'GET /metrics/prometheus': VIEW_RESOURCE,
  'GET /pacer/v1/set-aside': VIEW_RESOURCE,
  // The ring holds every recent input, whatever the principal may view: an operator's action.
  'POST /pacer/v1/recording': { kind: 'resource', action: 'UpdateResource' },
  'GET /pacer/v1/sim': VIEW_RESOURCE,
  'GET /v2/capacity': { kind: 'runSpecs', before: capacityRead },
  'GET /v2/events': ANY,
  'GET /ping': ANY,
  'GET /': ANY,
  'GET /ui/': ANY,
  'GET /ui/*': ANY,
  'GET /ui/assets/*': ANY,
};

/** The rule of a route (`HEAD` as `GET`); routes not in the table need `UpdateResource`. */
export function ruleOf(method: string, url: string): RouteRule {
  return ROUTE_RULES[`${method === 'HEAD' ? 'GET' : method} ${url}`] ?? { kind: 'resource', action: 'UpdateResource' };
}
