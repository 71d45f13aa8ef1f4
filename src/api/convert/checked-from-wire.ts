import type { AppSpec, PodSpec } from '../../scheduler/model/run-spec';
import { appShapePointerErrors } from '../schemas/app-shape';
import { podShapeErrors } from '../schemas/pod-shape-errors';
import { appFromWire } from './app-from-wire';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { podFromWire } from './pod-from-wire';

/**
 * An app definition that did not come through the app routes' own shape check (`checkAppShape`):
 * a group body's app, a scenario file's. Its shape and ranges first (the app JSON Schema,
 * src/api/schemas: types, bounds, sizes, play-json keys), then, only when they hold, the
 * converter's semantic rules. Problems come with JSON pointers either way. Every way into the
 * core thus passes the same limits (docs/limits.md).
 */
export function checkedAppFromWire(json: unknown, ctx: ConvertContext): ConvertResult<AppSpec> {
  const shape = appShapePointerErrors(json);
  return shape.length > 0 ? { ok: false, errors: shape } : appFromWire(json, ctx);
}

/** {@link checkedAppFromWire} for pods: the pod JSON Schema, then `podFromWire`. */
export function checkedPodFromWire(json: unknown, ctx: ConvertContext): ConvertResult<PodSpec> {
  const shape = podShapeErrors(json);
  return shape.length > 0 ? { ok: false, errors: shape } : podFromWire(json, ctx);
}
