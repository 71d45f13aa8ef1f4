import Ajv, { type ValidateFunction } from 'ajv';
import { APP_SCHEMA } from '../../src/marathon/schemas/app-schema';
import { withoutNulls } from '../../src/marathon/schemas/app-shape';
import { ENUM_CASELESS_KEYWORD } from '../../src/marathon/schemas/pod-shape-errors';
import { POD_SCHEMA } from '../../src/marathon/schemas/pod-schema';
import { explainSchemaErrors } from './explain-schema-errors';
import type { Problem } from './problem';

type Schema = Readonly<Record<string, unknown>>;

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties', 'if', 'then', 'else', 'not', 'contains'];
const MANY = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];

/**
 * The API's schema with every object that lists its properties closed (`additionalProperties:
 * false`), so that a field the definition does not know is an error. Marathon's readers ignore
 * unknown fields, and so does the REST API (its RAML types leave `additionalProperties` open, see
 * `docs/docs/rest-api/public/api/v2/types/app.raml`); a scenario file is stricter, because a
 * misspelt `instnaces: 3` would otherwise be silently dropped from a test. Objects with free keys
 * (labels, env, secrets) keep their own `additionalProperties`; objects the API leaves shapeless
 * (`{type: object}`) stay open.
 */
export function closedSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closedSchema);
  if (typeof node !== 'object' || node === null) return node;
  const schema = node as Schema;
  const out: Record<string, unknown> = { ...schema };
  if (typeof schema.properties === 'object' && schema.properties !== null) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, closedSchema(value)]));
    if (schema.additionalProperties === undefined) out.additionalProperties = false;
  }
  for (const key of [...ONE, ...MANY]) if (schema[key] !== undefined && typeof schema[key] === 'object') out[key] = closedSchema(schema[key]);
  return out;
}

let validators: Readonly<Record<'app' | 'pod', ValidateFunction>> | undefined;

function validator(kind: 'app' | 'pod'): ValidateFunction {
  if (validators === undefined) {
    // The API's schemas are draft 7 (ajv's default class), as src/api/schemas compiles them.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true });
    ajv.addKeyword(ENUM_CASELESS_KEYWORD);
    validators = { app: ajv.compile(closedSchema(APP_SCHEMA) as Schema), pod: ajv.compile(closedSchema(POD_SCHEMA) as Schema) };
  }
  return validators[kind];
}

/**
 * The shape problems of an app or pod definition of a scenario file at `pointer`: wrong types,
 * missing fields, values out of range, and unknown fields (with the nearest known name), each
 * worded as the rest of the file's errors (`expected a number, got "lots"`) at its own JSON
 * pointer. The semantic rules stay the API converter's (`checkDefinitions`). `null` fields count
 * as absent, as the API reads them.
 */
export function definitionShapeProblems(kind: 'app' | 'pod', definition: unknown, pointer: string): Problem[] {
  const validate = validator(kind);
  if (validate(kind === 'app' ? withoutNulls(definition) : definition)) return [];
  return explainSchemaErrors(validate.errors ?? [], { listedNamesMax: 12 }).map((p) => ({ pointer: pointer + p.pointer, message: p.message }));
}
