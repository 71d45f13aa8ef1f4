import { LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import { scenario as validate } from '../../src/generated/scenario-validator';
import type { ErrorObject } from 'ajv';
import { deepNestingOffset, documentBoundProblems, protoKeys } from './check-document-bounds';
import { convertScenario, type Refused } from './convert-scenario';
import { SCENARIO_DEPTH_MAX, SCENARIO_NODES_MAX } from './scenario-limits';
import { explainSchemaErrors } from './explain-schema-errors';
import { lineOfPointer } from './line-of-pointer';
import { childPointer, type Problem } from './problem';
import type { RawScenario } from './raw-scenario';
import type { Scenario } from './scenario';


/** The result of {@link loadScenario}. */
export type LoadScenarioResult =
  | {
    readonly ok: true;
    readonly scenario: Scenario;
    /** The 1-based line of the node a JSON pointer names (or of its nearest existing ancestor), for later messages. */
    readonly lineOf: (pointer: string) => number | undefined;
  }
  | { readonly ok: false; readonly errors: string[] };

/** Quoted values longer than this are cut in messages (a value may be 32,768 characters, or more when it is refused for its length). */
const QUOTED_MAX = 100;

/** Cuts every long JSON-quoted value of a message: `"1111…" (20002 characters)`. */
function clipQuoted(message: string): string {
  return message.replace(/"((?:[^"\\]|\\.){101,})"/g, (_whole, inner: string) => `"${inner.slice(0, QUOTED_MAX)}…" (${inner.length} characters)`);
}

/** yaml's wording of a problem, for a scenario's author (yaml's own speaks to a caller of yaml). */
function yamlMessage(error: YAMLError, text: string): string {
  if (error.code === 'MULTIPLE_DOCS') return 'a second YAML document starts here (after "---" or "..."); a scenario file holds one';
  const message = error.message.split('\n')[0] ?? '';
  if (error.code !== 'DUPLICATE_KEY') return message;
  const key = /^(?:"[^"\n]*"|'[^'\n]*'|[^:,{}[\]\n]*)/.exec(text.slice(error.pos[0]))?.[0].trim() ?? '';
  return key === '' ? message : `${message}: ${key.startsWith('"') ? key : JSON.stringify(key.replace(/^'|'$/g, ''))} is given again in the same mapping`;
}

/**
 * The YAML problems of a file: every duplicate key (each its own mistake), and of the other
 * syntax errors the first yaml found: those after it are mostly its echoes (one tab used as
 * indentation gave six lines), and nothing past it can be read as meant.
 */
function yamlProblems(fileName: string, document: Document, lineCounter: LineCounter, text: string): string[] {
  const all = [...document.errors, ...document.warnings];
  const firstSyntax = all.find((error) => error.code !== 'DUPLICATE_KEY');
  return all.filter((error) => error.code === 'DUPLICATE_KEY' || error === firstSyntax)
    .sort((a, b) => a.pos[0] - b.pos[0])
    .map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return `${fileName}: line ${line}, column ${col}: ${yamlMessage(error, text)}`;
    });
}

/**
 * Loads a scenario file: parses the YAML text, validates it against `scenarioSchema`
 * (scenario-schema.ts, compiled when pacer is built: src/validation/validator-modules.ts), then
 * converts it, checking the rules the schema cannot say. Pure: the caller reads the file.
 *
 * Either the whole scenario, or the errors found (the first {@link SCENARIO_ERRORS_MAX}, then how many more), each as
 * `file: /json/pointer: what was expected (line N)`, in line order. YAML syntax errors and
 * exceeded bounds come alone (nothing else can be checked); otherwise every mistake comes in one
 * go: `__proto__` keys, the schema's problems, and the semantic ones of every part the schema did
 * not refuse, app and pod definitions through the API's converter too.
 */
export function loadScenario(fileName: string, text: string): LoadScenarioResult {
  const loaded = loadUncapped(fileName, text);
  return loaded.ok ? loaded : { ok: false, errors: cappedErrors(fileName, loaded.errors) };
}

/** Errors printed for one file at most (docs/limits.md): a 1 MiB file of broken lines gave one line each. */
export const SCENARIO_ERRORS_MAX = 20;

function cappedErrors(fileName: string, errors: string[]): string[] {
  if (errors.length <= SCENARIO_ERRORS_MAX) return errors;
  return [...errors.slice(0, SCENARIO_ERRORS_MAX), `${fileName}: … and ${errors.length - SCENARIO_ERRORS_MAX} more problems`];
}

function loadUncapped(fileName: string, text: string): LoadScenarioResult {
  const lineCounter = new LineCounter();
  const deepAt = deepNestingOffset(text);
  if (deepAt !== undefined) {
    const before = text.slice(0, deepAt);
    const line = before.split('\n').length;
    const col = deepAt - before.lastIndexOf('\n');
    return { ok: false, errors: [`${fileName}: line ${line}, column ${col}: nesting deeper than ${SCENARIO_DEPTH_MAX} levels`] };
  }
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const syntax = yamlProblems(fileName, document, lineCounter, text);
  if (syntax.length > 0) return { ok: false, errors: syntax };

  const lineOf = (pointer: string) => lineOfPointer(document, lineCounter, pointer);
  /** Each problem worded with its line, in line order (then as found). */
  const format = (problems: readonly { problem: Problem; line: number | undefined }[]) => problems
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || a.index - b.index)
    .map(({ problem, line }) =>
      `${fileName}: ${problem.pointer === '' ? '/' : problem.pointer}: ${clipQuoted(problem.message)}${line === undefined ? '' : ` (line ${line})`}`);
  const withLines = (problems: readonly Problem[]) => problems.map((problem) => ({ problem, line: lineOf(problem.pointer) }));

  const bounds = documentBoundProblems(document);
  if (bounds.length > 0) return { ok: false, errors: format(withLines(bounds)) };
  // `__proto__` keys are mistakes, found with their lines, then taken out: the rest is checked without them.
  const forbidden = protoKeys(document);
  const forbiddenLines = withLines(forbidden.map((key) => key.problem));
  for (const key of forbidden) key.remove();

  let data: unknown;
  try {
    // The walk above bounded the values with every alias expanded (SCENARIO_NODES_MAX, the bound
    // docs/limits.md states); yaml's own guard is an estimate of the same, kept at that bound.
    data = document.toJS({ maxAliasCount: SCENARIO_NODES_MAX });
  } catch (error) {
    const message = (error as Error).message;
    return {
      ok: false,
      errors: [`${fileName}: ${/^Excessive alias count/.test(message) ? `expected at most ${SCENARIO_NODES_MAX} values with the YAML aliases expanded (yaml: ${message})` : message}`],
    };
  }
  // The schema's problems and the semantic ones in one go: what the schema refused is left out of
  // the conversion (refusedPointers), the rest is converted and checked.
  const schemaErrors = validate(data) ? [] : validate.errors ?? [];
  const problems = explainSchemaErrors(schemaErrors);
  const converted = typeof data === 'object' && data !== null && !Array.isArray(data)
    ? convertScenario(data as RawScenario, lineOf, { refused: refusedBy(schemaErrors) })
    : undefined;
  if (converted?.ok === true && problems.length === 0 && forbidden.length === 0) return { ok: true, scenario: converted.scenario, lineOf };
  return { ok: false, errors: format([...forbiddenLines, ...withLines([...problems, ...(converted?.ok === false ? converted.problems : [])])]) };
}

/**
 * The parts of a document the schema refused, as {@link Refused}: the pointer of every error but
 * an unknown field (converting ignores those) — for a missing field, the field's own pointer.
 */
function refusedBy(errors: readonly ErrorObject[]): Refused {
  const pointers = errors.filter((e) => e.keyword !== 'additionalProperties' && e.keyword !== 'if').map((e) =>
    e.keyword === 'required' ? childPointer(e.instancePath, String((e.params as { missingProperty: unknown }).missingProperty)) : e.instancePath);
  if (pointers.length === 0) return () => false;
  return (pointer) => pointers.some((p) => p === pointer || p.startsWith(`${pointer}/`));
}
