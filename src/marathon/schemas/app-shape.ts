import type { ConvertError as ErrorDetail } from '../convert/convert-result';
import { app, update, type Validator } from '../../generated/app-validators';
import { marathonPath } from './app-error-path';
import { playJsonDetails } from './play-json-errors';
import { versionFieldErrors } from './version-field';

/** Which contract a body is checked against: a full app (`id` required) or an AppUpdate. */
export type AppShape = 'app' | 'update';

/**
 * `APP_SCHEMA` and `APP_UPDATE_SCHEMA` (app-schema.ts), compiled when pacer is built, not at every
 * start (`src/validation/validator-modules.ts`: every error, `verbose`, strict).
 */
const validators: Readonly<Record<AppShape, Validator>> = { app, update };

/**
 * Checks the shape of an app definition against the app JSON Schema, the single contract for
 * shape errors (fact 4): wrong types, missing required fields, numbers out of range, bad lengths
 * and patterns. Returns Marathon's `details` (one entry per path, play-json error keys such as
 * `error.expected.jsstring`, `error.path.missing`, `error.min`, `error.pattern`); empty when the
 * shape is valid. `null` values count as absent, as Marathon's readers treat optional fields.
 * `pointerPrefix` places the body inside a larger one (`/0` for the first app of a bulk body).
 */
export function appShapeErrors(body: unknown, shape: AppShape, pointerPrefix = ''): ErrorDetail[] {
  return shapeDetails(body, shape, (pointer) => marathonPath(pointerPrefix + pointer));
}

/**
 * {@link appShapeErrors} of a full app with the paths as JSON pointers (`/healthChecks/0/portIndex`,
 * `/` for the body), the way the converter reports its problems: what `appFromWire` checks first,
 * so that every way into the core (groups' apps, scenario files) gets the same shape and ranges.
 */
export function appShapePointerErrors(body: unknown): ErrorDetail[] {
  return shapeDetails(body, 'app', (pointer) => (pointer === '' ? '/' : pointer));
}

function shapeDetails(body: unknown, shape: AppShape, pathOf: (pointer: string) => string): ErrorDetail[] {
  const validate = validators[shape];
  const details = validate(withoutNulls(body)) ? [] : playJsonDetails(validate.errors ?? [], pathOf);
  return [...details, ...versionFieldErrors(body, pathOf('/version'))];
}

/** A copy of `value` without object fields whose value is `null` (array items are kept): Marathon reads them as absent. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = withoutNulls(v);
  return out;
}
