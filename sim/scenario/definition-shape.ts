import { app, pod } from '../../src/generated/scenario-definition-validators';
import { withoutNulls } from '../../src/marathon/schemas/app-shape';
import { explainSchemaErrors } from './explain-schema-errors';
import type { Problem } from './problem';

/**
 * The validators of the API's app and pod schemas, closed (`closedSchema` of
 * closed-schema.ts: an unknown field is an error), compiled when pacer is built
 * (`src/validation/validator-modules.ts`; draft 7, ajv's default class, as the API's are).
 */
const validators = { app, pod } as const;

/**
 * The shape problems of an app or pod definition of a scenario file at `pointer`: wrong types,
 * missing fields, values out of range, and unknown fields (with the nearest known name), each
 * worded as the rest of the file's errors (`expected a number, got "lots"`) at its own JSON
 * pointer. The semantic rules stay the API converter's (`checkDefinitions`). `null` fields count
 * as absent, as the API reads them.
 */
export function definitionShapeProblems(kind: 'app' | 'pod', definition: unknown, pointer: string): Problem[] {
  const validate = validators[kind];
  if (validate(kind === 'app' ? withoutNulls(definition) : definition)) return [];
  return explainSchemaErrors(validate.errors ?? [], { listedNamesMax: 12 }).map((p) => ({ pointer: pointer + p.pointer, message: p.message }));
}
