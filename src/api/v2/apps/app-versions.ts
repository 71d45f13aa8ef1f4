import type { ApiDeps } from '../../api-deps';
import { notFound, notFoundText } from '../../errors';
import { appJson } from '../../render/app-json';
import { findApp } from './app-lookup';
import { versionKey } from '../../version-text';

/** `GET /v2/apps/{id}/versions` (fact 51): `{"versions":[…]}`, newest first; unknown app → 404. */
export function appVersions(deps: ApiDeps, appId: string): { versions: string[] } {
  if (findApp(deps, appId) === undefined) throw notFound(notFoundText.app(appId));
  return { versions: deps.scheduler.versions(appId) };
}

/**
 * `GET /v2/apps/{id}/versions/{version}` (fact 51): the app definition stored at that version,
 * not wrapped; unknown app → 404 `App '/x' does not exist`, unknown version → 404
 * `App '/x' does not exist in version <ts>`, both with `details: []`.
 */
export function appVersion(deps: ApiDeps, appId: string, version: string): Record<string, unknown> {
  if (findApp(deps, appId) === undefined) throw notFound(notFoundText.app(appId));
  const spec = deps.scheduler.runSpecVersion(appId, versionKey(version));
  if (spec === undefined || spec.kind !== 'app') throw notFound(notFoundText.appVersion(appId, version));
  return appJson(deps, spec, new Set());
}
