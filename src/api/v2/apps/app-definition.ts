import type { ApiDeps } from '../../api-deps';
import { appFromWire } from '../../../marathon/convert/app-from-wire';
import { emptyBody, invalidJson, objectNotValid } from '../../errors';
import { marathonPath } from '../../../marathon/schemas/app-error-path';
import { type AppShape, appShapeErrors } from '../../../marathon/schemas/app-shape';
import type { AppSpec } from '../../../scheduler/model/app';
import { parentOf, resolvePathId } from '../../../scheduler/index';
import { appConvertContext } from './app-convert-context';

/** A JSON object body. */
export type WireApp = Record<string, unknown>;

/** The parsed body, or fact 6's 400 when the request had none. */
export function requireBody(body: unknown): unknown {
  if (body === undefined) throw emptyBody();
  return body;
}

/**
 * The first contract of every app body: its shape against the app JSON Schema. Throws fact 4's
 * `422 Invalid JSON` with play-json keys; `pointerPrefix` locates an element of a bulk body.
 */
export function checkAppShape(body: unknown, shape: AppShape, pointerPrefix = ''): WireApp {
  const details = appShapeErrors(body, shape, pointerPrefix);
  if (details.length > 0) throw invalidJson(details);
  return body as WireApp;
}

/**
 * `def` with canonical ids (Marathon's `withCanonizedIds`, fact 21): `id` becomes `appId` (already
 * resolved against the root or taken from the URL), relative `dependencies` resolve against the
 * app's parent group (`../db` of `/prod/web` → `/db`).
 */
export function withCanonicalIds(def: WireApp, appId: string): WireApp {
  const out: WireApp = { ...def, id: appId };
  if (Array.isArray(def.dependencies)) {
    const base = parentOf(appId);
    out.dependencies = def.dependencies.map((d) => (typeof d === 'string' ? resolvePathId(d, base) : d));
  }
  return out;
}

/**
 * The second contract: the converter's semantic rules (fact 3) in the context of the app's
 * groups and roles. Throws `422 Object is not valid` with Marathon's paths (`/healthChecks(0)`);
 * `pointerPrefix` locates an element of a bulk body.
 */
export function convertApp(
  deps: ApiDeps, def: WireApp, existing: AppSpec | undefined, versionIso: string, pointerPrefix = '',
): AppSpec {
  const appId = typeof def.id === 'string' ? def.id : '/';
  const ctx = appConvertContext(deps, appId, versionIso, existing);
  const result = appFromWire(def, ctx);
  if (result.ok) return result.spec;
  const at = (path: string): string => marathonPath(path === '/' ? pointerPrefix : pointerPrefix + path);
  throw objectNotValid(result.errors.map((e) => ({ path: at(e.path), errors: e.errors })));
}
