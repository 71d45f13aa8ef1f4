import type { Constraint, ConstraintOperator } from '../../scheduler/model/constraint';
import { CONSTRAINT_MESSAGES, constraintOperatorOf, validateConstraint, type ConstraintForm } from '../../scheduler/index';
import type { ErrorSink } from './error-sink';
import { childPointer } from './json-pointer';
import { isRecord, type WireObject } from './wire-object';

/** Message for a constraint array with fewer than 2 or more than 3 elements. */
export const CONSTRAINT_ARITY_MESSAGE = 'Each constraint must have either 2 or 3 fields';

/**
 * Reads the constraint list at `holder[key]`. Apps write constraints as arrays
 * `[field, operator, value?]`; pods as objects `{fieldName, operator, value?}`; both forms are
 * accepted in either place (and written back in the run spec's own form). Operators match in any
 * case. Each
 * constraint is checked by the core's one validator (`validateConstraint`, Marathon's
 * `SchedulingValidation` rules and messages) and a problem is reported at the constraint's pointer
 * (`/constraints/0`, which the API writes as Marathon's `/constraints(0)`), so that no constraint
 * the matcher cannot evaluate is ever accepted (its instances would wait forever).
 */
export function constraintsFromWire(holder: WireObject | undefined, key: string): Constraint[] {
  const list = holder?.array(key) ?? [];
  if (holder === undefined) return [];
  const base = holder.pathOf(key);
  const constraints: Constraint[] = [];
  list.forEach((item, i) => {
    const parsed = constraintFromWire(item, childPointer(base, i), holder.sink);
    if (parsed !== undefined) constraints.push(parsed);
  });
  return constraints;
}

function constraintFromWire(
  item: unknown,
  path: string,
  sink: ErrorSink,
): Constraint | undefined {
  if (Array.isArray(item)) return fromArray(item, path, sink);
  if (isRecord(item)) return fromObject(item, path, sink);
  sink.add(path, 'error.expected.jsarray');
  return undefined;
}

function fromArray(item: readonly unknown[], path: string, sink: ErrorSink): Constraint | undefined {
  if (item.length < 2 || item.length > 3) {
    sink.add(path, CONSTRAINT_ARITY_MESSAGE);
    return undefined;
  }
  const badIndex = item.findIndex((part) => typeof part !== 'string');
  if (badIndex >= 0) {
    sink.add(childPointer(path, badIndex), 'error.expected.jsstring');
    return undefined;
  }
  const [field, op, value] = item as readonly string[];
  const operator = validated({ field, operator: op, value }, 'array', path, sink);
  if (operator === undefined) return undefined;
  return build(field, operator, value);
}

function fromObject(item: Readonly<Record<string, unknown>>, path: string, sink: ErrorSink): Constraint | undefined {
  const field = stringField(item, 'fieldName', path, sink, true);
  const op = stringField(item, 'operator', path, sink, true);
  const value = stringField(item, 'value', path, sink, false);
  if (field === undefined || op === undefined) return undefined;
  if (constraintOperatorOf(op) === undefined) {
    // A pod's operator is an enum: Marathon reports an unknown one at the operator itself.
    sink.add(childPointer(path, 'operator'), CONSTRAINT_MESSAGES.operatorInvalid);
    return undefined;
  }
  const operator = validated({ field, operator: op, value }, 'object', path, sink);
  if (operator === undefined) return undefined;
  return build(field, operator, value);
}

function stringField(
  item: Readonly<Record<string, unknown>>,
  key: string,
  path: string,
  sink: ErrorSink,
  required: boolean,
): string | undefined {
  const value = item[key];
  if (value === undefined || value === null) {
    if (required) sink.add(childPointer(path, key), 'error.path.missing');
    return undefined;
  }
  if (typeof value === 'string') return value;
  sink.add(childPointer(path, key), 'error.expected.jsstring');
  return undefined;
}

/** The canonical operator of a valid constraint; the validator's problems go to `path`. */
function validated(
  c: { field: string; operator: string; value: string | undefined },
  form: ConstraintForm,
  path: string,
  sink: ErrorSink,
): ConstraintOperator | undefined {
  const problems = validateConstraint(c, form);
  for (const problem of problems) sink.add(path, problem);
  return problems.length > 0 ? undefined : constraintOperatorOf(c.operator);
}

function build(field: string, operator: ConstraintOperator, value: string | undefined): Constraint {
  return value === undefined ? { field, operator } : { field, operator, value };
}
