import type { Constraint, ConstraintOperator } from '../model/constraint';
import { canonicalFieldName, fieldKindOf, type FieldKind } from './field-value';
import { formatScalar } from './format-attribute';
import { fullMatchRegex } from './full-match-regex';
import { INT32_MAX_VALUE, parseInt32 } from './parse-int32';

/** One distinct constrained field of a run spec; PlacementCounts keeps one set of counters per field. */
export interface CompiledField {
  /** Canonical name: `@hostname` (for `hostname` too), `@region`, `@zone` or the attribute name. */
  readonly name: string;
  readonly kind: FieldKind;
  /** True when some GROUP_BY reads this field, so its counters must also keep a count histogram. */
  readonly tracksGroups: boolean;
  /** True when some CLUSTER without a value reads this field, so its counters must also keep its anchor. */
  readonly tracksAnchor: boolean;
}

/**
 * A constraint with everything the per-offer check needs computed once: the field's kind and
 * counter slot, the anchored regex, the integer, the normalised IS value. Every instance has the
 * same shape (all properties present) so the check path stays monomorphic.
 */
export interface CompiledConstraint {
  /** The constraint as written, for reasons and messages. */
  readonly source: Constraint;
  readonly operator: ConstraintOperator;
  readonly kind: FieldKind;
  /** The field as written; the attribute name when `kind` is `'attribute'`. */
  readonly field: string;
  /** Index into {@link CompiledConstraints.fields} (and PlacementCounts' slots). */
  readonly fieldIndex: number;
  /**
   * False when the constraint cannot be evaluated (LIKE/UNLIKE without a value or with a regex
   * that does not compile, MAX_PER without an integer, IS without a value, an unknown operator).
   * Validation rejects such constraints; should one reach the matcher anyway (old stored data), it
   * refuses every agent that has the field rather than throwing in the hot path.
   */
  readonly usable: boolean;
  /** The value; an empty value counts as none (Marathon treats `""` and absent alike). */
  readonly value: string | undefined;
  /** LIKE/UNLIKE: `^(?:value)$`, a full match like Java's `String.matches`. */
  readonly regex: RegExp | undefined;
  /** MAX_PER: the maximum per value. GROUP_BY: the minimum number of groups (0 without a value). */
  readonly limit: number;
  /** IS: the value rounded to the thousandth when it is written as a plain decimal (`0.80` → `0.8`). */
  readonly isScalar: string | undefined;
  /**
   * True when the check reads the placement counters (a usable UNIQUE, GROUP_BY, MAX_PER, or
   * CLUSTER without a value): it then reads the agent's value as an interned id (FieldCounts.idOn)
   * rather than as text.
   */
  readonly counted: boolean;
}

/** A run spec's constraints, compiled once (per run spec version) and shared by every check. */
export interface CompiledConstraints {
  readonly constraints: readonly CompiledConstraint[];
  readonly fields: readonly CompiledField[];
  /**
   * True when no constraint reads the placement counters (only LIKE, UNLIKE, IS, CLUSTER with a
   * value, or constraints that cannot be evaluated): whether they accept an agent then depends on
   * the agent alone, so the matcher checks them once per offer instead of once per candidate.
   */
  readonly agentOnly: boolean;
}

const SCALAR_TEXT = /^[0-9]+(?:\.[0-9]+)?$/;

/**
 * Compiles a run spec's constraints for the matcher: call once per run spec version, never per
 * offer. Regular expressions are anchored as full matches, integers parsed (MAX_PER's maximum,
 * GROUP_BY's minimum group count, with Marathon's `inf` and default 0), IS values normalised to
 * the thousandth when they look like scalars, and fields deduplicated into counter slots
 * (`hostname` and `@hostname` share one).
 *
 * Never throws: a constraint that validation would have rejected compiles to `usable: false`.
 */
export function compileConstraints(constraints: readonly Constraint[]): CompiledConstraints {
  const fieldIndexByName = new Map<string, number>();
  const fields: { name: string; kind: FieldKind; tracksGroups: boolean; tracksAnchor: boolean }[] = [];
  const compiled: CompiledConstraint[] = [];

  for (const source of constraints) {
    const kind = fieldKindOf(source.field);
    const name = canonicalFieldName(source.field);
    let fieldIndex = fieldIndexByName.get(name);
    if (fieldIndex === undefined) {
      fieldIndex = fields.length;
      fieldIndexByName.set(name, fieldIndex);
      fields.push({ name, kind, tracksGroups: false, tracksAnchor: false });
    }
    if (source.operator === 'GROUP_BY') fields[fieldIndex].tracksGroups = true;
    const one = compileOne(source, kind, fieldIndex);
    if (one.operator === 'CLUSTER' && one.counted) fields[fieldIndex].tracksAnchor = true;
    compiled.push(one);
  }
  return { constraints: compiled, fields, agentOnly: compiled.every((c) => !c.counted) };
}

/**
 * Whether one constraint's verdict depends on the placement counters (CompiledConstraint.counted);
 * the others depend on the agent alone (see CompiledConstraints.agentOnly and constraintAccepts).
 */
function readsCounts(operator: string, usable: boolean, value: string | undefined): boolean {
  if (!usable) return false;
  switch (operator) {
    case 'UNIQUE':
    case 'GROUP_BY':
    case 'MAX_PER':
      return true;
    case 'CLUSTER':
      return value === undefined;
    default:
      return false;
  }
}

function compileOne(source: Constraint, kind: FieldKind, fieldIndex: number): CompiledConstraint {
  const value = source.value === undefined || source.value === '' ? undefined : source.value;
  let usable = true;
  let regex: RegExp | undefined;
  let limit = 0;
  let isScalar: string | undefined;

  switch (source.operator) {
    case 'UNIQUE':
    case 'CLUSTER':
      break;
    case 'GROUP_BY':
      // Marathon: `max(0, value as int)`, `inf` → Int.MaxValue, anything unparseable → 0.
      if (value === 'inf') limit = INT32_MAX_VALUE;
      else if (value !== undefined) limit = Math.max(0, parseInt32(value) ?? 0);
      break;
    case 'MAX_PER': {
      const max = value === undefined ? undefined : parseInt32(value);
      if (max === undefined) usable = false;
      else limit = max;
      break;
    }
    case 'LIKE':
    case 'UNLIKE':
      regex = value === undefined ? undefined : fullMatchRegex(value);
      if (regex === undefined) usable = false;
      break;
    case 'IS':
      if (value === undefined) usable = false;
      else if (SCALAR_TEXT.test(value)) isScalar = formatScalar(Number(value));
      break;
    default:
      usable = false;
  }
  const counted = readsCounts(source.operator, usable, value);
  return { source, operator: source.operator, kind, field: source.field, fieldIndex, usable, value, regex, limit, isScalar, counted };
}

