import type { ApiDeps } from '../../api-deps';
import { notFoundBare, notFoundText, objectNotValid } from '../../errors';
import type { AppSpec } from '../../../scheduler/model/app';
import { versionKey } from '../../version-text';
import { marathonPath } from '../../../marathon/schemas/app-error-path';
import { checkAppShape, convertApp, type WireApp, withCanonicalIds } from './app-definition';
import { mergeAppUpdate } from './app-merge';
import { appDefinitionJson } from '../../../marathon/render/app-definition-json';
import { isRecord } from '../../../marathon/convert/wire-object';

/** How one app update is applied. */
export interface AppUpdateMode {
  /** Merge into the stored definition (`partialUpdate=true`, PATCH) instead of replacing it. */
  readonly partial: boolean;
  /** `PUT` creates a missing app; `PATCH` never does (fact 44). */
  readonly allowCreation: boolean;
  /** `?force=true`: also allows the role change of a resident app (fact 114). */
  readonly force: boolean;
}

/** Marathon's message when `version` (a rollback) comes with other fields (fact 45). */
export const VERSION_ONLY_MESSAGE = "The 'version' field may only be combined with the 'id' field.";

/**
 * The app an update asks for, as the converter gives it (the core stamps its versions when it puts
 * it: a definition that did not change keeps its version, fact 46; a scale keeps
 * `lastConfigChangeAt`):
 *
 * - existing app and partial: the body is an AppUpdate merged over the stored app as Marathon's
 *   app writer writes it
 *   (fact 41), or, when it has `version`, a rollback to that stored version (fact 45);
 * - otherwise (a full replacement or a missing app): the body is a complete app whose id is the
 *   URL's (fact 43). A missing app that may not be created is a 404 — after the body was
 *   validated as a complete app, as Marathon does (fact 44).
 *
 * A resident app changes its role only with `force` (fact 114).
 */
export function updatedAppSpec(
  deps: ApiDeps, appId: string, existing: AppSpec | undefined, body: unknown, mode: AppUpdateMode,
  versionIso: string, pointerPrefix = '',
): AppSpec {
  if (existing !== undefined && mode.partial) {
    const update = checkAppShape(body, 'update', pointerPrefix);
    return update.version !== undefined && update.version !== null
      ? rollbackTarget(deps, appId, update, pointerPrefix)
      : convertApp(deps, withCanonicalIds(mergeAppUpdate(appDefinitionJson(existing), update), appId), existing, versionIso, pointerPrefix);
  }
  const full = checkAppShape(isRecord(body) ? { ...body, id: appId } : body, 'app', pointerPrefix);
  const spec = convertApp(deps, withCanonicalIds(full, appId), existing, versionIso, pointerPrefix);
  if (existing === undefined && !mode.allowCreation) throw notFoundBare(notFoundText.app(appId));
  return spec;
}

function rollbackTarget(deps: ApiDeps, appId: string, update: WireApp, pointerPrefix: string): AppSpec {
  const others = Object.keys(update).filter((k) => k !== 'id' && k !== 'version' && update[k] !== null);
  if (others.length > 0) throw objectNotValid([{ path: marathonPath(pointerPrefix), errors: [VERSION_ONLY_MESSAGE] }]);
  const old = deps.scheduler.runSpecVersion(appId, versionKey(String(update.version)));
  if (old === undefined || old.kind !== 'app') throw notFoundBare(notFoundText.app(appId));
  return old;
}
