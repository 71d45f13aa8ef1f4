import type { AppSpec } from '../../scheduler/model/app';
import type { PodSpec } from '../../scheduler/model/pod';
import type { ConvertError as ErrorDetail } from './convert-result';
import { appShapePointerErrors } from '../schemas/app-shape';
import { podShapeErrors } from '../schemas/pod-shape-errors';
import { appFromWire } from './app-from-wire';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { podFromWire } from './pod-from-wire';

/**
 * How much of the JSON Schema a definition must meet before it is converted: `shape`, all of it
 * (what Marathon's reader checks: types, minima, patterns, and pacer's maxima); `limits`, only
 * pacer's maxima (docs/limits.md: `error.max`, `error.maxLength`), for scenario files, whose
 * definitions have always been read by the converter alone (the swarm draws values such as
 * `backoffSeconds: 0.5` that the converter runs and Marathon's reader refuses).
 */
export type CheckLevel = 'shape' | 'limits';

const LIMIT_KEYS: ReadonlySet<string> = new Set(['error.max', 'error.maxLength']);

/**
 * An app definition that did not come through the app routes' own shape check (`checkAppShape`):
 * a group body's app (`shape`), a scenario file's (`limits`). The JSON Schema first
 * (src/marathon/schemas), then, only when it holds, the converter's semantic rules. Problems come with
 * JSON pointers either way. Every way into the core thus passes the same limits.
 */
export function checkedAppFromWire(json: unknown, ctx: ConvertContext, level: CheckLevel = 'shape'): ConvertResult<AppSpec> {
  const problems = atLevel(appShapePointerErrors(json), level);
  return problems.length > 0 ? { ok: false, errors: problems } : appFromWire(json, ctx);
}

/** {@link checkedAppFromWire} for pods: the pod JSON Schema, then `podFromWire`. */
export function checkedPodFromWire(json: unknown, ctx: ConvertContext, level: CheckLevel = 'shape'): ConvertResult<PodSpec> {
  const problems = atLevel(podShapeErrors(json), level);
  return problems.length > 0 ? { ok: false, errors: problems } : podFromWire(json, ctx);
}

function atLevel(details: readonly ErrorDetail[], level: CheckLevel): ErrorDetail[] {
  if (level === 'shape') return [...details];
  return details
    .map((d) => ({ path: d.path, errors: d.errors.filter((e) => LIMIT_KEYS.has(e)) }))
    .filter((d) => d.errors.length > 0);
}
