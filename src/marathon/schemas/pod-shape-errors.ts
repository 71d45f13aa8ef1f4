import Ajv, { type KeywordDefinition, type ValidateFunction } from 'ajv';
import type { ConvertError as ErrorDetail } from '../convert/convert-result';
import { playJsonDetails } from './play-json-errors';
import { POD_SCHEMA } from './pod-schema';

let compiled: ValidateFunction | undefined;

/**
 * The pod schema's `enumCaseless` keyword: one of the listed strings in any case. Marathon's
 * generated enum readers compare lower-cased values: `Oldest_First` is accepted.
 */
export const ENUM_CASELESS_KEYWORD: KeywordDefinition = {
  keyword: 'enumCaseless',
  type: 'string',
  schemaType: 'array',
  errors: false,
  validate: (allowed: readonly string[], data: string) => allowed.some((v) => v.toLowerCase() === data.toLowerCase()),
};

function validator(): ValidateFunction {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, verbose: true });
  ajv.addKeyword(ENUM_CASELESS_KEYWORD);
  compiled = ajv.compile(POD_SCHEMA);
  return compiled;
}

/**
 * The shape problems of a pod definition (types, required fields, bounds, patterns,
 * enumerations), one entry per JSON pointer in the order first met, with Marathon's play-json
 * error keys; empty when the shape is fine. Callers answer a non-empty result with
 * `invalidJson(details)` (422 "Invalid JSON", fact 4) before running the semantic conversion.
 */
export function podShapeErrors(json: unknown): ErrorDetail[] {
  const validate = validator();
  if (validate(json)) return [];
  return playJsonDetails(validate.errors ?? [], (pointer) => (pointer === '' ? '/' : pointer));
}
