import { joinSegments, segments } from '../../../scheduler/index';

/** What a path below `/v2/apps/` addresses. Ids are canonical and absolute. */
export type AppTarget =
  | { readonly kind: 'app'; readonly appId: string }
  | { readonly kind: 'groupApps'; readonly groupId: string }
  | { readonly kind: 'tasks'; readonly appId: string }
  | { readonly kind: 'groupTasks'; readonly groupId: string }
  | { readonly kind: 'task'; readonly appId: string; readonly taskId: string }
  | { readonly kind: 'versions'; readonly appId: string }
  | { readonly kind: 'version'; readonly appId: string; readonly version: string }
  | { readonly kind: 'restart'; readonly appId: string };

export type AppTargetKind = AppTarget['kind'];

/**
 * Parses the part of a URL after `/v2/apps/` (app ids contain slashes, so the routes are
 * wildcards and the sub-resource is read from the end): `prod/web` → the app, `prod/*` → every
 * app below `/prod` (fact 39), `prod/web/tasks`, `prod/*\/tasks` (fact 53), `prod/web/tasks/<taskId>`,
 * `prod/web/versions`, `prod/web/versions/<ts>`, `prod/web/restart`. Only the sub-resources in
 * `allowed` (those of the request's method) are recognised; anything else names an app, as in
 * Marathon, where `GET /v2/apps/x/restart` asks for the app `/x/restart`. `isApp` lets an existing
 * app whose id ends like a sub-resource path (`/a/versions/b`, stored before such ids were refused:
 * `scheduler/groups/reserved-new-group.ts`) keep its URL.
 */
export function parseAppTarget(rest: string, allowed: ReadonlySet<AppTargetKind>, isApp: (id: string) => boolean): AppTarget {
  const parts = segments(rest);
  const whole = joinSegments(parts);
  if (parts.length === 0 || isApp(whole)) return { kind: 'app', appId: whole };
  const last = parts[parts.length - 1];
  const before = parts[parts.length - 2];
  const head = (n: number): string => joinSegments(parts.slice(0, parts.length - n));
  const candidates: AppTarget[] = [];
  if (last === '*') candidates.push({ kind: 'groupApps', groupId: head(1) });
  if (last === 'tasks' && before === '*') candidates.push({ kind: 'groupTasks', groupId: head(2) });
  if (last === 'tasks' && before !== '*') candidates.push({ kind: 'tasks', appId: head(1) });
  if (last === 'versions') candidates.push({ kind: 'versions', appId: head(1) });
  if (last === 'restart') candidates.push({ kind: 'restart', appId: head(1) });
  if (before === 'versions' && parts.length > 2) candidates.push({ kind: 'version', appId: head(2), version: last });
  if (before === 'tasks' && parts.length > 2) candidates.push({ kind: 'task', appId: head(2), taskId: last });
  return candidates.find((c) => allowed.has(c.kind)) ?? { kind: 'app', appId: whole };
}
