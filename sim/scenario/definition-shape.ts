import { app, pod } from '../../src/generated/scenario-definition-validators';
import { withoutNulls } from '../../src/marathon/schemas/app-shape';
import { explainSchemaErrors } from './explain-schema-errors';
import type { Problem } from './problem';
import { convertDefinition } from '../runner/convert-definitions';

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
 * pointer. The semantic rules stay the API converter's ({@link definitionProblems}). `null` fields count
 * as absent, as the API reads them. `convertible`: no problem but unknown fields, which the
 * converter ignores (as the API does), so it can still be asked about the rest.
 */
export function definitionShapeProblems(kind: 'app' | 'pod', definition: unknown, pointer: string): { problems: Problem[]; convertible: boolean } {
  const validate = validators[kind];
  if (validate(kind === 'app' ? withoutNulls(definition) : definition)) return { problems: [], convertible: true };
  const errors = validate.errors ?? [];
  return {
    problems: explainSchemaErrors(errors, { listedNamesMax: 12 }).map((p) => ({ pointer: pointer + p.pointer, message: p.message })),
    convertible: errors.every((e) => e.keyword === 'additionalProperties'),
  };
}

/**
 * Every problem of one app or pod definition at `pointer`, in one go: its shape
 * ({@link definitionShapeProblems}) and, unless a wrong type or missing field leaves nothing to
 * convert, the API converter's rules with pacer's limits (`convertDefinition`: constraints,
 * `cmd` or a container, …), each at its JSON pointer.
 */
export function definitionProblems(kind: 'app' | 'pod', definition: Readonly<Record<string, unknown>>, pointer: string, defaultRole: string): Problem[] {
  const shape = definitionShapeProblems(kind, definition, pointer);
  if (!shape.convertible) return shape.problems;
  const converted = convertDefinition(kind, definition, defaultRole, '2026-01-01T00:00:00.000Z');
  if (converted.ok) return shape.problems;
  const semantic = converted.errors.flatMap((e) => e.errors.map((message) => ({ pointer: `${pointer}${e.path === '/' ? '' : e.path}`, message })));
  return [...shape.problems, ...semantic];
}
