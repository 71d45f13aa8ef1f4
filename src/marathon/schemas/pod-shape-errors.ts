import type { ConvertError as ErrorDetail } from '../convert/convert-result';
import { pod as validate } from '../../generated/pod-validator';
import { playJsonDetails } from './play-json-errors';
import { versionFieldErrors } from './version-field';

/**
 * The shape problems of a pod definition (types, required fields, bounds, patterns,
 * enumerations, a `version` that is no date), one entry per JSON pointer in the order first met, with Marathon's play-json
 * error keys; empty when the shape is fine. Callers answer a non-empty result with
 * `invalidJson(details)` (422 "Invalid JSON", fact 4) before running the semantic conversion.
 * The validator is `POD_SCHEMA` (pod-schema.ts, with the `enumCaseless` keyword) compiled when
 * pacer is built (`src/validation/validator-modules.ts`).
 */
export function podShapeErrors(json: unknown): ErrorDetail[] {
  const details = validate(json) ? [] : playJsonDetails(validate.errors ?? [], (pointer) => (pointer === '' ? '/' : pointer));
  return [...details, ...versionFieldErrors(json, '/version')];
}
