import type { ApiDeps } from '../../api-deps';
import { notFound, notFoundText } from '../../errors';
import { embedSet, type Query } from '../../query';
import { appJson, appsJson, appsPieces, singleAppText } from '../../render/app-json';
import { allRunSpecs, type Group } from '../../../scheduler/index';
import type { AppSpec } from '../../../scheduler/model/app';
import { appFilter } from './app-filter';
import type { ListPiece } from '../../render/list-body-cache';
import { appsBelow, findApp, findAppGroup } from './app-lookup';

/** Fact 35: the list always carries counts and deployments, whatever `embed` says. */
const LIST_DEFAULTS = ['counts', 'deployments'];

/** Fact 38: a single app (and a group's apps, fact 39) always carries these. */
const SHOW_DEFAULTS = ['counts', 'tasks', 'lastTaskFailure', 'deployments'];

/**
 * `GET /v2/apps` (facts 35–37): `{"apps":[…]}` filtered by `cmd`, `id` and `label`, and by
 * `viewable` (authorization: the apps the caller may view, undefined when the caller may view
 * every app; the list is answered as JSON text, which fastify's preSerialization hooks do not see,
 * so the route filters here), as JSON text ({@link appsPieces}: the same bytes as serializing the
 * objects, without building them).
 */
export function listAppsText(deps: ApiDeps, query: Query, viewable: ((appId: string) => boolean) | undefined): string {
  return `${APPS_PREFIX}${listAppsPieces(deps, query, viewable).flatMap((p) => p.parts).join(',')}${APPS_SUFFIX}`;
}

/** What {@link listAppsText} joins the app texts with. */
export const APPS_PREFIX = '{"apps":[';
export const APPS_SUFFIX = ']}';

/**
 * The texts {@link listAppsText} joins, one piece per app ({@link appsPieces}), named by the app's
 * id: the route's kept answer encodes again only the apps whose text changed (list-body-cache.ts).
 */
export function listAppsPieces(deps: ApiDeps, query: Query, viewable: ((appId: string) => boolean) | undefined): ListPiece[] {
  const keep = appFilter(query);
  const embed = new Set([...embedSet(query), ...LIST_DEFAULTS]);
  const all = appsOf(deps.scheduler.root());
  const apps = keep === undefined && viewable === undefined ? all : all.filter((s) => (keep === undefined || keep(s)) && (viewable === undefined || viewable(s.id)));
  return appsPieces(deps, apps, embed);
}

/**
 * Every app of the tree in path order ({@link allRunSpecs}), kept per root object: a root is
 * immutable (a change makes a new one), and sorting 10,000 path ids cost 2–6 ms of every
 * `GET /v2/apps` (issue 13). Kept weakly: gone with the root.
 */
function appsOf(root: Group): readonly AppSpec[] {
  let apps = keptApps.get(root);
  if (apps === undefined) {
    apps = allRunSpecs(root).filter((s): s is AppSpec => s.kind === 'app');
    keptApps.set(root, apps);
  }
  return apps;
}

const keptApps = new WeakMap<Group, readonly AppSpec[]>();

/** `GET /v2/apps/{id}` (fact 38): `{"app":{…}}`; unknown → 404 with `details: []`. */
export function showApp(deps: ApiDeps, appId: string, query: Query): { app: Record<string, unknown> } {
  const app = findApp(deps, appId);
  if (app === undefined) throw notFound(notFoundText.app(appId));
  return { app: appJson(deps, app, new Set([...embedSet(query), ...SHOW_DEFAULTS])) };
}

/**
 * {@link showApp} as JSON text, byte for byte (the route's answer): the embedded tasks come from
 * their kept texts, so an app of 100,000 instances is not 100,000 objects built and serialized on
 * the loop per GET.
 */
export function showAppText(deps: ApiDeps, appId: string, query: Query): string {
  const app = findApp(deps, appId);
  if (app === undefined) throw notFound(notFoundText.app(appId));
  return `{"app":${singleAppText(deps, app, new Set([...embedSet(query), ...SHOW_DEFAULTS]))}}`;
}

/** `GET /v2/apps/{group}/*` (fact 39): `{"*":[…]}` with every app below the group; unknown group → 404. */
export function showGroupApps(deps: ApiDeps, groupId: string, query: Query): { '*': Record<string, unknown>[] } {
  const group = findAppGroup(deps, groupId);
  if (group === undefined) throw notFound(notFoundText.group(groupId));
  const embed = new Set([...embedSet(query), ...SHOW_DEFAULTS]);
  return { '*': appsJson(deps, appsBelow(group), embed) };
}
