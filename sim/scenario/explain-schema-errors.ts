import type { ErrorObject } from 'ajv';
import { PATH_ID_PATTERN } from '../../src/scheduler/index';
import { describeValue } from './describe-value';
import { childPointer, type Problem } from './problem';
import { EXPECTED_KEYWORD } from './scenario-schema';
import { suggestName } from './suggest-name';

type Schema = Readonly<Record<string, unknown>>;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  object: 'a mapping (key: value)',
  array: 'a list',
  null: 'an empty value',
};

/** The API schemas' patterns a scenario's author meets most, in words (the regular expression of an id is 80 characters). */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [PATH_ID_PATTERN]: 'an id of names separated by "/" (such as "/web" or "/prod/api"), each of lowercase letters, digits, "-" and ".", '
    + 'starting and ending with a letter or digit, as each part between dots does',
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$': 'a name of lowercase letters, digits and "-" that starts and ends with a letter or digit',
  '^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$': 'a name of lowercase letters, digits, "-" and "_" that starts and ends with a letter or digit',
};

function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}

function expectedOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const expected = (schema as Schema)[EXPECTED_KEYWORD];
  return typeof expected === 'string' ? expected : undefined;
}

function propertyNames(schema: unknown): string[] {
  const properties = (schema as Schema | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function didYouMean(input: unknown, candidates: readonly string[]): string {
  if (typeof input !== 'string') return '';
  const suggestion = suggestName(input, candidates);
  return suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** How {@link explainSchemaErrors} words its problems. */
export interface ExplainOptions {
  /** List at most this many allowed field names after an unknown field (default: all). */
  readonly listedNamesMax?: number;
}

function listNames(names: readonly string[], max: number): string {
  return names.length > max ? `${names.slice(0, max).join(', ')}, … (${names.length} in all)` : names.join(', ');
}

/** The words for one ajv error that survived the filtering of {@link explainSchemaErrors}. */
function explainOne(error: ErrorObject, options: ExplainOptions): Problem {
  const here = error.instancePath;
  const params = error.params as Record<string, unknown>;
  const got = `got ${describeValue(error.data)}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const allowed = propertyNames(error.parentSchema);
      return {
        pointer: childPointer(here, field),
        message: `unknown field "${field}"${didYouMean(field, allowed)} (allowed: ${listNames(allowed, options.listedNamesMax ?? Infinity)})`,
      };
    }
    case 'required': {
      const field = String(params.missingProperty);
      const property = (error.parentSchema?.properties as Schema | undefined)?.[field];
      const expected = expectedOf(property);
      return {
        pointer: childPointer(here, field),
        message: `required field "${field}" is missing${expected === undefined ? '' : ` (expected ${expected})`}`,
      };
    }
    case 'discriminator': {
      const tag = String(params.tag);
      const variants = (error.parentSchema?.oneOf as readonly Schema[]).map(
        (variant) => String(((variant.properties as Schema)[tag] as Schema).const),
      );
      const pointer = childPointer(here, tag);
      if (params.tagValue === undefined) {
        return { pointer, message: `required field "${tag}" is missing (one of: ${variants.join(', ')})` };
      }
      return {
        pointer,
        message: `expected one of: ${variants.join(', ')}, got ${describeValue(params.tagValue)}${didYouMean(params.tagValue, variants)}`,
      };
    }
    default:
      break;
  }
  const expected = expectedOf(error.parentSchema);
  if (expected !== undefined) return { pointer: here, message: `expected ${expected}, ${got}` };
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return { pointer: here, message: `expected ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}, ${got}` };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        pointer: here,
        message: `expected ${error.parentSchema?.type === 'integer' ? 'a whole number' : 'a number'} ${String(params.comparison)} ${String(params.limit)}, ${got}`,
      };
    case 'minLength':
      return { pointer: here, message: params.limit === 1 ? 'expected non-empty text' : `expected at least ${plural(Number(params.limit), 'character')}, ${got}` };
    case 'minItems':
      return { pointer: here, message: `expected a list of at least ${plural(Number(params.limit), 'item')}, ${got}` };
    case 'maxItems':
      return { pointer: here, message: `expected a list of at most ${plural(Number(params.limit), 'item')}, ${got}` };
    case 'minProperties': {
      const allowed = propertyNames(error.parentSchema);
      return {
        pointer: here,
        message: allowed.length === 0
          ? `expected at least ${plural(Number(params.limit), 'entry')}`
          : `expected at least ${params.limit === 1 ? 'one' : String(params.limit)} of: ${allowed.join(', ')}`,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as readonly unknown[]).map(String);
      return { pointer: here, message: `expected one of: ${allowed.join(', ')}, ${got}${didYouMean(error.data, allowed)}` };
    }
    case 'const':
      return { pointer: here, message: `expected ${describeValue(params.allowedValue)}, ${got}` };
    case 'enumCaseless': {
      const allowed = (error.schema as readonly unknown[]).map(String);
      return { pointer: here, message: `expected one of: ${allowed.join(', ')} (in any case), ${got}${didYouMean(error.data, allowed)}` };
    }
    case 'pattern': {
      const words = PATTERN_WORDS[String(params.pattern)];
      return { pointer: here, message: `expected ${words ?? `text matching /${String(params.pattern)}/`}, ${got}` };
    }
    default:
      return { pointer: here, message: `${error.message ?? 'is invalid'} (${error.keyword})` };
  }
}

/**
 * Turns ajv's errors (compiled with `allErrors` and `verbose`) into plain-worded problems, one per
 * distinct fault:
 * - `if` errors are dropped (the failing `then`/`else` branch reports the fault itself);
 * - an `anyOf`/`oneOf` annotated with {@link EXPECTED_KEYWORD} reports `expected <annotation>` once,
 *   and the errors of its branches are dropped; such a `oneOf` is dropped too where the same object
 *   has unknown fields (for a timeline step with a misspelt action, `unknown field` says it all);
 * - unknown fields name the allowed ones (and the nearest, when one is close); missing fields point
 *   at the field itself, unless an unknown field of the same object is its misspelling (then that
 *   one's "did you mean" is the one problem).
 */
export function explainSchemaErrors(errors: readonly ErrorObject[], options: ExplainOptions = {}): Problem[] {
  const compounds = errors.filter((error) =>
    (error.keyword === 'oneOf' || error.keyword === 'anyOf') && expectedOf(error.parentSchema) !== undefined);
  const withUnknownFields = new Set(
    errors.filter((error) => error.keyword === 'additionalProperties').map((error) => error.instancePath));
  // A missing field that an unknown field of the same object is a misspelling of (`timelin` for
  // `timeline`) is one mistake: the unknown field's "did you mean" says it, the missing one is dropped.
  const misspelt = new Set(errors.filter((error) => error.keyword === 'additionalProperties').flatMap((error) => {
    const suggestion = suggestName(String((error.params as Record<string, unknown>).additionalProperty), propertyNames(error.parentSchema));
    return suggestion === undefined ? [] : [childPointer(error.instancePath, suggestion)];
  }));
  const kept = errors.filter((error) => {
    if (error.keyword === 'if') return false;
    if (error.keyword === 'required' && misspelt.has(childPointer(error.instancePath, String((error.params as Record<string, unknown>).missingProperty)))) return false;
    if (compounds.includes(error)) return !withUnknownFields.has(error.instancePath);
    return !compounds.some((compound) =>
      isWithin(error.instancePath, compound.instancePath) && error.schemaPath.startsWith(`${compound.schemaPath}/`));
  });
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of kept) {
    const problem = explainOne(error, options);
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
