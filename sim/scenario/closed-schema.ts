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
 * (`{type: object}`) stay open. The scenario loader's validators of these closed schemas are
 * compiled when pacer is built (`src/validation/validator-modules.ts`).
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
