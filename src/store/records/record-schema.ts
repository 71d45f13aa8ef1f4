import type { Validator } from '../../generated/record-validators';

/** A JSON Schema (draft-07, as ajv reads it) of a stored record. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** `{ [key]: value }` when `value` is defined, else `{}`: optional fields stay absent, never `undefined`. */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A check of one kind of stored record: undefined when `value` passes `validate`, else why not,
 * naming the record type and the JSON pointer of the first problem
 * (`does not match StoredInstanceV1: /tasks/0 must have required property 'condition'`).
 *
 * `validate` is the kind's schema compiled when pacer is built (`src/generated/record-validators.ts`,
 * one ajv of `strict`, `discriminator` and the first error only: see
 * `src/validation/validator-modules.ts`): a schema that does not compile fails the generator
 * (`npm run gen:validators`) and its test, never start-up nor a record of its kind.
 */
export function recordCheck(typeName: string, validate: Validator): (value: unknown) => string | undefined {
  return (value) => {
    if (validate(value)) return undefined;
    const e = validate.errors?.[0];
    const where = e === undefined || e.instancePath === '' ? '' : `${e.instancePath} `;
    return `does not match ${typeName}: ${where}${e?.message ?? 'invalid'}`;
  };
}
