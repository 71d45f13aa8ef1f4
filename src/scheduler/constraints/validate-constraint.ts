import { CONSTRAINT_OPERATORS } from '../model/constraint';
import { fullMatchRegex } from './full-match-regex';
import { parseInt32 } from './parse-int32';

/**
 * The validation messages, worded as Marathon 1.11 words them (clients and tests match on them;
 * see shared/spec/marathon-api-facts.md item 32), plus two of ours where Marathon has none.
 */
export const CONSTRAINT_MESSAGES = {
  fieldRequired: 'missing field for constraint declaration',
  operatorInvalid: 'operator must be one of the following UNIQUE, CLUSTER, GROUP_BY, LIKE, MAX_PER, UNLIKE or IS',
  valueNotText: 'constraint value must be a string',
  uniqueTakesNoValue: 'UNIQUE does not accept a value',
  groupByInteger: 'GROUP BY must define an integer value or else no value at all',
  maxPerInteger: 'MAX_PER requires an integer value',
  likeRequiresRegex: 'LIKE and UNLIKE require a non-empty, regular expression value',
  invalidRegex: 'is not a valid regular expression',
  isRequiresValue: 'IS requires a non-empty text or scalar value',
  isTextOrScalar:
    'IS only supports Mesos text and float values (see http://mesos.apache.org/documentation/latest/attributes-resources/)',
} as const;

const IS_VALUE = /^[a-zA-Z0-9_/.-]+$/;

/**
 * Checks one constraint as a client wrote it (`[field, operator, value?]` or the pod form
 * `{fieldName, operator, value}`, already split into the three parts) and returns the problems as
 * human-readable messages; an empty array means valid. Run at the API edge, before a Constraint
 * is built, so that the matcher never sees a constraint it cannot evaluate.
 *
 * Rules: the field is a non-empty string; the operator is one of the seven (matched
 * case-insensitively, as Marathon does for apps: the caller upper-cases it before building the
 * Constraint); the value, when present, is a string, and
 * - UNIQUE takes no value;
 * - GROUP_BY takes no value or an integer string; MAX_PER requires an integer string
 *   (Java `Integer.parseInt` syntax: optional sign, digits, 32-bit range);
 * - LIKE and UNLIKE require a non-empty value that compiles as a regular expression (JavaScript
 *   syntax: the one the matcher will run);
 * - IS requires a non-empty value of letters, digits, `_`, `/`, `.`, `-` (Marathon lets an empty
 *   IS through and then matches nothing; we reject it, as spec 2.8 calls the value required).
 * A `null` value counts as absent. The arity of the array form (2 or 3 items) is the API's check.
 */
export function validateConstraint(c: { field?: unknown; operator?: unknown; value?: unknown }): string[] {
  const errors: string[] = [];
  if (typeof c.field !== 'string' || c.field === '') errors.push(CONSTRAINT_MESSAGES.fieldRequired);

  const operator = typeof c.operator === 'string' ? c.operator.toUpperCase() : undefined;
  if (operator === undefined || !(CONSTRAINT_OPERATORS as readonly string[]).includes(operator)) {
    errors.push(CONSTRAINT_MESSAGES.operatorInvalid);
    return errors;
  }

  const raw = c.value === null ? undefined : c.value;
  if (raw !== undefined && typeof raw !== 'string') {
    errors.push(CONSTRAINT_MESSAGES.valueNotText);
    return errors;
  }
  const value: string | undefined = raw;

  switch (operator) {
    case 'UNIQUE':
      if (value !== undefined) errors.push(CONSTRAINT_MESSAGES.uniqueTakesNoValue);
      break;
    case 'CLUSTER':
      break;
    case 'GROUP_BY':
      if (value !== undefined && parseInt32(value) === undefined) errors.push(CONSTRAINT_MESSAGES.groupByInteger);
      break;
    case 'MAX_PER':
      if (value === undefined || parseInt32(value) === undefined) errors.push(CONSTRAINT_MESSAGES.maxPerInteger);
      break;
    case 'LIKE':
    case 'UNLIKE':
      if (value === undefined || value === '') errors.push(CONSTRAINT_MESSAGES.likeRequiresRegex);
      else if (fullMatchRegex(value) === undefined) errors.push(CONSTRAINT_MESSAGES.invalidRegex);
      break;
    case 'IS':
      if (value === undefined || value === '') errors.push(CONSTRAINT_MESSAGES.isRequiresValue);
      else if (!IS_VALUE.test(value)) errors.push(CONSTRAINT_MESSAGES.isTextOrScalar);
      break;
  }
  return errors;
}
