import Ajv, { type ValidateFunction } from 'ajv';

/** A JSON Schema (draft-07, as ajv reads it) of a stored record. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** `{ [key]: value }` when `value` is defined, else `{}`: optional fields stay absent, never `undefined`. */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** One ajv for every stored-record schema (strict: a typo in a schema is an error when it compiles). */
const ajv = new Ajv({ strict: true, allErrors: false, discriminator: true });

/**
 * A check of one kind of stored record: undefined when `value` matches `schema`, else why not,
 * naming the record type and the JSON pointer of the first problem
 * (`does not match StoredInstanceV1: /tasks/0 must have required property 'condition'`).
 */
export function recordCheck(typeName: string, schema: JsonSchema): (value: unknown) => string | undefined {
  // Compiled now, not on first use: a schema that does not compile must fail at start-up (and in
  // every test), never turn into a reason that sets every record of its kind aside.
  const validate: ValidateFunction = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return undefined;
    const e = validate.errors?.[0];
    const where = e === undefined || e.instancePath === '' ? '' : `${e.instancePath} `;
    return `does not match ${typeName}: ${where}${e?.message ?? 'invalid'}`;
  };
}
