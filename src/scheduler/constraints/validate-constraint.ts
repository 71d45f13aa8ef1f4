import { CONSTRAINT_OPERATORS, type ConstraintOperator } from '../model/constraint';
import { fullMatchRegex } from './full-match-regex';
import { linearTimeProblem } from './linear-time-pattern';
import { parseInt32 } from './parse-int32';

/**
 * The validation messages, worded as Marathon 1.11 words them (clients and tests match on them;
 * `api/v2/validation/SchedulingValidation.scala`, object `SchedulingValidationMessages`; see
 * shared/spec/marathon-api-facts.md item 32), plus one of ours where Marathon has none.
 */
export const CONSTRAINT_MESSAGES = {
  fieldRequired: 'missing field for constraint declaration',
  illegalSpecification: 'illegal constraint specification',
  operatorInvalid: 'operator must be one of the following UNIQUE, CLUSTER, GROUP_BY, LIKE, MAX_PER, UNLIKE or IS',
  valueNotText: 'constraint value must be a string',
  uniqueTakesNoValue: 'UNIQUE does not accept a value',
  groupByInteger: 'GROUP BY must define an integer value or else no value at all',
  maxPerInteger: 'MAX_PER requires an integer value',
  likeRequiresRegex: 'LIKE and UNLIKE require a non-empty, regular expression value',
  invalidRegex: 'is not a valid regular expression',
  /** pacer's own (Marathon runs Java's backtracking engine): see linear-time-pattern.ts. */
  notLinearTime: 'LIKE and UNLIKE patterns may not use backreferences or lookarounds: pacer matches them in time linear in the value',
  isRequiresValue: 'IS requires a non-empty text or scalar value',
  isTextOrScalar:
    'IS only supports Mesos text and float values (see http://mesos.apache.org/documentation/latest/attributes-resources/)',
} as const;

/**
 * How the constraint was written: an app's array `[field, operator, value?]` (Marathon's
 * `complyWithAppConstraintRules`) or a pod's object `{fieldName, operator, value}`
 * (`complyWithConstraintRules`). They differ only in the message for a missing field.
 */
export type ConstraintForm = 'array' | 'object';

const IS_VALUE = /^[a-zA-Z0-9_/.-]+$/;

/**
 * The operator named by `text`, matched case-insensitively as Marathon does for apps
 * (`ConstraintOperator.fromString(op.toUpperCase)`); undefined for anything else.
 */
export function constraintOperatorOf(text: unknown): ConstraintOperator | undefined {
  if (typeof text !== 'string') return undefined;
  const upper = text.toUpperCase();
  return CONSTRAINT_OPERATORS.find((known) => known === upper);
}

/**
 * Checks one constraint as a client wrote it (already split into field, operator and value) and
 * returns Marathon's message for the first rule it breaks, or `[]` when it is valid. The one
 * constraint validator: the API's converter (apps, pods, and so scenario files) and the swarm's
 * generator call it, so that the matcher never sees a constraint it cannot evaluate.
 *
 * Marathon's rules (`SchedulingValidation.scala`), in its order:
 * - the field is a non-empty string (an app's array: `illegal constraint specification`; a pod's
 *   object: `missing field for constraint declaration`);
 * - the operator is one of the seven, in any case;
 * - UNIQUE takes no value; CLUSTER takes any value or none;
 * - GROUP_BY takes no value or an integer; MAX_PER requires an integer (Java `Integer.parseInt`
 *   syntax, Marathon's `toInt`: optional sign, digits, 32-bit range — {@link parseInt32});
 * - LIKE and UNLIKE require a value that compiles as a regular expression (and, pacer's own
 *   rule, uses no backreference or lookaround: linear-time-pattern.ts);
 * - IS requires a value of letters, digits, `_`, `/`, `.`, `-`.
 *
 * Two deliberate differences, because service-spec.md section 2.8 (which wins) calls the value of
 * LIKE/UNLIKE and IS required: an empty LIKE/UNLIKE value and an empty or missing IS value are
 * refused (Marathon lets them through and then places nothing). Regular expressions are compiled
 * with JavaScript's syntax, the one the matcher runs (Java-only syntax such as `(?i)` is refused).
 * A `null` value counts as absent; a value that is not a string is refused. The arity of the array
 * form (2 or 3 items) is the converter's check.
 */
export function validateConstraint(c: { field?: unknown; operator?: unknown; value?: unknown }, form: ConstraintForm = 'array'): string[] {
  if (typeof c.field !== 'string' || c.field === '') {
    return [form === 'array' ? CONSTRAINT_MESSAGES.illegalSpecification : CONSTRAINT_MESSAGES.fieldRequired];
  }
  const operator = constraintOperatorOf(c.operator);
  if (operator === undefined) return [CONSTRAINT_MESSAGES.operatorInvalid];
  const raw = c.value === null ? undefined : c.value;
  if (raw !== undefined && typeof raw !== 'string') return [CONSTRAINT_MESSAGES.valueNotText];
  const problem = valueProblem(operator, raw);
  return problem === undefined ? [] : [problem];
}

function valueProblem(operator: ConstraintOperator, value: string | undefined): string | undefined {
  switch (operator) {
    case 'UNIQUE':
      return value === undefined ? undefined : CONSTRAINT_MESSAGES.uniqueTakesNoValue;
    case 'CLUSTER':
      return undefined;
    case 'GROUP_BY':
      return value === undefined || parseInt32(value) !== undefined ? undefined : CONSTRAINT_MESSAGES.groupByInteger;
    case 'MAX_PER':
      return value !== undefined && parseInt32(value) !== undefined ? undefined : CONSTRAINT_MESSAGES.maxPerInteger;
    case 'LIKE':
    case 'UNLIKE':
      if (value === undefined || value === '') return CONSTRAINT_MESSAGES.likeRequiresRegex;
      if (fullMatchRegex(value) === undefined) return CONSTRAINT_MESSAGES.invalidRegex;
      return linearTimeProblem(value) === undefined ? undefined : CONSTRAINT_MESSAGES.notLinearTime;
    case 'IS':
      if (value === undefined || value === '') return CONSTRAINT_MESSAGES.isRequiresValue;
      return IS_VALUE.test(value) ? undefined : CONSTRAINT_MESSAGES.isTextOrScalar;
  }
}
