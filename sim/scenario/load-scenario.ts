import { LineCounter, parseDocument, type Document } from 'yaml';
import { scenario as validate } from '../../src/generated/scenario-validator';
import { convertScenario } from './convert-scenario';
import { explainSchemaErrors } from './explain-schema-errors';
import { lineOfPointer } from './line-of-pointer';
import type { Problem } from './problem';
import type { RawScenario } from './raw-scenario';
import type { Scenario } from './scenario';

/** YAML aliases a file may expand (a guard against alias bombs). */
const ALIAS_EXPANSIONS_MAX = 1000;

/** The result of {@link loadScenario}. */
export type LoadScenarioResult =
  | {
    readonly ok: true;
    readonly scenario: Scenario;
    /** The 1-based line of the node a JSON pointer names (or of its nearest existing ancestor), for later messages. */
    readonly lineOf: (pointer: string) => number | undefined;
  }
  | { readonly ok: false; readonly errors: string[] };

function yamlProblems(fileName: string, document: Document, lineCounter: LineCounter): string[] {
  return [...document.errors, ...document.warnings].map((error) => {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    return `${fileName}: line ${line}, column ${col}: ${error.message.split('\n')[0]}`;
  });
}

/**
 * Loads a scenario file: parses the YAML text, validates it against `scenarioSchema`
 * (scenario-schema.ts, compiled when pacer is built: src/validation/validator-modules.ts), then
 * converts it, checking the rules the schema cannot say. Pure: the caller reads the file.
 *
 * Either the whole scenario, or every error found, each as
 * `file: /json/pointer: what was expected (line N)`. YAML syntax errors come alone (nothing else
 * can be checked); schema errors come before semantic checks run (those need a well-formed document).
 */
export function loadScenario(fileName: string, text: string): LoadScenarioResult {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const syntax = yamlProblems(fileName, document, lineCounter);
  if (syntax.length > 0) return { ok: false, errors: syntax };

  const lineOf = (pointer: string) => lineOfPointer(document, lineCounter, pointer);
  const format = (problems: readonly Problem[]) => problems
    .map((problem, index) => ({ problem, index, line: lineOf(problem.pointer) }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || a.index - b.index)
    .map(({ problem, line }) =>
      `${fileName}: ${problem.pointer === '' ? '/' : problem.pointer}: ${problem.message}${line === undefined ? '' : ` (line ${line})`}`);

  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: ALIAS_EXPANSIONS_MAX });
  } catch (error) {
    return { ok: false, errors: [`${fileName}: ${(error as Error).message}`] };
  }
  if (!validate(data)) return { ok: false, errors: format(explainSchemaErrors(validate.errors ?? [])) };
  const converted = convertScenario(data as RawScenario, lineOf);
  return converted.ok ? { ok: true, scenario: converted.scenario, lineOf } : { ok: false, errors: format(converted.problems) };
}
