import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ErrorDetail } from '../errors';
import { marathonPath } from './app-error-path';
import { APP_SCHEMA, APP_UPDATE_SCHEMA } from './app-schema';

/** Which contract a body is checked against: a full app (`id` required) or an AppUpdate. */
export type AppShape = 'app' | 'update';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false });
const validators: Readonly<Record<AppShape, ValidateFunction>> = {
  app: ajv.compile(APP_SCHEMA),
  update: ajv.compile(APP_UPDATE_SCHEMA),
};

/**
 * Checks the shape of an app definition against the app JSON Schema, the single contract for
 * shape errors (fact 4): wrong types, missing required fields, numbers out of range, bad lengths
 * and patterns. Returns Marathon's `details` (one entry per path, play-json error keys such as
 * `error.expected.jsstring`, `error.path.missing`, `error.min`, `error.pattern`); empty when the
 * shape is valid. `null` values count as absent, as Marathon's readers treat optional fields.
 * `pointerPrefix` places the body inside a larger one (`/0` for the first app of a bulk body).
 */
export function appShapeErrors(body: unknown, shape: AppShape, pointerPrefix = ''): ErrorDetail[] {
  const validate = validators[shape];
  if (validate(withoutNulls(body))) return [];
  const byPath = new Map<string, string[]>();
  for (const err of validate.errors ?? []) {
    const key = playJsonKey(err);
    if (key === undefined) continue;
    const path = marathonPath(pointerPrefix + pointerOf(err));
    const list = byPath.get(path);
    if (list === undefined) byPath.set(path, [key]);
    else if (!list.includes(key)) list.push(key);
  }
  return [...byPath].map(([path, errors]) => ({ path, errors }));
}

function pointerOf(err: ErrorObject): string {
  if (err.keyword !== 'required') return err.instancePath;
  const missing = String((err.params as { missingProperty: string }).missingProperty);
  return `${err.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const RANGE_KEYS: Readonly<Record<string, string>> = {
  required: 'error.path.missing',
  minimum: 'error.min',
  exclusiveMinimum: 'error.min',
  maximum: 'error.max',
  exclusiveMaximum: 'error.max',
  minLength: 'error.minLength',
  minItems: 'error.minLength',
  maxLength: 'error.maxLength',
  maxItems: 'error.maxLength',
  pattern: 'error.pattern',
  propertyNames: 'error.pattern',
  enum: 'error.unknown.enum.literal',
};

/** The play-json key Marathon writes for an ajv error; undefined for ajv's bookkeeping (`if`). */
function playJsonKey(err: ErrorObject): string | undefined {
  if (err.keyword === 'if') return undefined;
  if (err.keyword === 'type') return typeKey(String((err.params as { type: string }).type), err.data);
  return RANGE_KEYS[err.keyword] ?? 'error.invalid';
}

function typeKey(expected: string, data: unknown): string {
  switch (expected) {
    case 'integer':
      // play-json's Int reader: a number that is not an int → error.expected.int.
      return typeof data === 'number' ? 'error.expected.int' : 'error.expected.jsnumber';
    case 'number': return 'error.expected.jsnumber';
    case 'string': return 'error.expected.jsstring';
    case 'boolean': return 'error.expected.jsboolean';
    case 'array': return 'error.expected.jsarray';
    case 'object': return 'error.expected.jsobject';
    default: return `error.expected.js${expected}`;
  }
}

/** A copy of `value` without object fields whose value is `null` (array items are kept). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = withoutNulls(v);
  return out;
}
