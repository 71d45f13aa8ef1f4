import type { ErrorObject } from 'ajv';
import type { ConvertError as ErrorDetail } from '../convert/convert-result';

/**
 * ajv's keyword → the play-json error key Marathon's readers report for it (fact 4). `type` and
 * `required` are resolved in {@link playJsonKey}; `if` and `propertyNames` are ajv's bookkeeping
 * and have no key of their own. Bounds of pacer's own (docs/limits.md) use the same keys.
 */
const KEYWORD_KEYS: Readonly<Record<string, string>> = {
  minimum: 'error.min',
  exclusiveMinimum: 'error.min',
  maximum: 'error.max',
  exclusiveMaximum: 'error.max',
  minLength: 'error.minLength',
  minItems: 'error.minLength',
  maxLength: 'error.maxLength',
  maxItems: 'error.maxLength',
  maxProperties: 'error.maxLength',
  pattern: 'error.pattern',
  enum: 'error.unknown.enum.literal',
  // The pods' case-insensitive enum keyword (Marathon's generated enum readers lower-case).
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

/**
 * The one mapping of ajv errors to Marathon's `details` (fact 4), shared by the app and pod
 * shape checks: one entry per offending field in the order first met, each with its distinct
 * play-json keys (`error.expected.jsstring`, `error.path.missing`, `error.min`, …). A `required`
 * error names the missing field itself. `pathOf` writes a JSON pointer the way the endpoint's
 * answers spell paths (apps: Marathon's `/a(0)/b`; pods: the pointer).
 */
export function playJsonDetails(errors: readonly ErrorObject[], pathOf: (pointer: string) => string): ErrorDetail[] {
  const byPath = new Map<string, string[]>();
  for (const err of errors) {
    const key = playJsonKey(err);
    if (key === undefined) continue;
    const path = pathOf(pointerOf(err));
    const list = byPath.get(path);
    if (list === undefined) byPath.set(path, [key]);
    else if (!list.includes(key)) list.push(key);
  }
  return [...byPath].map(([path, errors]) => ({ path, errors }));
}

/** The JSON pointer of the offending value; for `required`, of the missing field. */
function pointerOf(err: ErrorObject): string {
  if (err.keyword !== 'required') return err.instancePath;
  const missing = String((err.params as { missingProperty: string }).missingProperty);
  return `${err.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The play-json key for an ajv error; undefined for ajv's bookkeeping (`if`, and `propertyNames`,
 * whose failing key comes as its own error at the map: a key too long → `error.maxLength`);
 * `error.invalid` for any other keyword.
 */
function playJsonKey(err: ErrorObject): string | undefined {
  if (err.keyword === 'if' || err.keyword === 'propertyNames') return undefined;
  if (err.keyword === 'required') return 'error.path.missing';
  if (err.keyword === 'type') return typeKey(err);
  return KEYWORD_KEYS[err.keyword] ?? 'error.invalid';
}

/** The key for a value of the wrong JSON type: the first expected type that is not `null`. */
function typeKey(err: ErrorObject): string {
  const expected = String((err.params as { type: string | string[] }).type).split(',');
  const first = expected.find((t) => t !== 'null') ?? 'object';
  // play-json's Int reader: a number that is not an int → error.expected.int.
  if (first === 'integer' && typeof err.data === 'number') return 'error.expected.int';
  return TYPE_KEYS[first] ?? `error.expected.js${first}`;
}
