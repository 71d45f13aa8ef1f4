import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ErrorDetail } from '../errors';
import { POD_SCHEMA } from './pod-schema';

/**
 * ajv's keyword → the play-json error key Marathon's reader reports for it (fact 4). `type` is
 * resolved per expected type in {@link typeKey}.
 */
const KEYWORD_KEYS: Readonly<Record<string, string>> = {
  minimum: 'error.min',
  exclusiveMinimum: 'error.min',
  maximum: 'error.max',
  exclusiveMaximum: 'error.max',
  minLength: 'error.minLength',
  maxLength: 'error.maxLength',
  minItems: 'error.minLength',
  maxItems: 'error.maxLength',
  pattern: 'error.pattern',
  enum: 'error.unknown.enum.literal',
  enumCaseless: 'error.unknown.enum.literal',
};

const TYPE_KEYS: Readonly<Record<string, string>> = {
  string: 'error.expected.jsstring',
  number: 'error.expected.jsnumber',
  integer: 'error.expected.jsnumber',
  boolean: 'error.expected.jsboolean',
  object: 'error.expected.jsobject',
  array: 'error.expected.jsarray',
};

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, verbose: true });
  // Marathon's generated enum readers compare lower-cased values: `Oldest_First` is accepted.
  ajv.addKeyword({
    keyword: 'enumCaseless',
    type: 'string',
    schemaType: 'array',
    errors: false,
    validate: (allowed: readonly string[], data: string) => allowed.some((v) => v.toLowerCase() === data.toLowerCase()),
  });
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
  const byPath = new Map<string, string[]>();
  for (const error of validate.errors ?? []) {
    const detail = detailOf(error);
    if (detail === undefined) continue;
    const messages = byPath.get(detail.path) ?? [];
    if (!messages.includes(detail.message)) messages.push(detail.message);
    byPath.set(detail.path, messages);
  }
  return [...byPath].map(([path, errors]) => ({ path, errors }));
}

function detailOf(error: ErrorObject): { path: string; message: string } | undefined {
  const base = error.instancePath;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path: `${base}/${escapePointer(missing)}`, message: 'error.path.missing' };
  }
  const message = error.keyword === 'type' ? typeKey(error) : KEYWORD_KEYS[error.keyword];
  return message === undefined ? undefined : { path: base === '' ? '/' : base, message };
}

/** The key for a value of the wrong JSON type: the first expected type that is not `null`. */
function typeKey(error: ErrorObject): string {
  const expected = String((error.params as { type: string | string[] }).type).split(',');
  const first = expected.find((t) => t !== 'null') ?? 'object';
  // play-json reads a fractional number as an Int with `error.expected.int`.
  if (first === 'integer' && typeof error.data === 'number') return 'error.expected.int';
  return TYPE_KEYS[first] ?? 'error.expected.jsobject';
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
