/**
 * Small combinators that say what is wrong with a value read back from the store, or nothing: a
 * check returns undefined for a sound value, else the first problem as `<path>: <what>`. They
 * never throw and never recurse deeper than the shapes they describe, so that any decoded record,
 * however bad, can be judged before the core relies on it (issue 11: no stored record may stop
 * pacer from starting).
 */
export type Check = (value: unknown, at: string) => string | undefined;

/** A plain object (not an array, a Map or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Set);
}

export const str: Check = (v, at) => (typeof v === 'string' ? undefined : `${at}: expected a string`);

export const bool: Check = (v, at) => (typeof v === 'boolean' ? undefined : `${at}: expected a boolean`);

/** Anything at all (a field whose content the core never interprets). */
export const anything: Check = () => undefined;

/** A finite number within [min, max], a whole one when `integer`. */
export function num(min: number, max: number, integer = false): Check {
  return (v, at) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return `${at}: expected a finite number`;
    if (integer && !Number.isInteger(v)) return `${at}: expected a whole number`;
    return v < min || v > max ? `${at}: ${v} is outside [${min}, ${max}]` : undefined;
  };
}

/** A finite number ≥ 0. */
export const nonNegative: Check = num(0, Number.MAX_VALUE);

/** One of the listed strings. */
export function oneOf(values: readonly string[]): Check {
  return (v, at) => (typeof v === 'string' && values.includes(v) ? undefined : `${at}: expected one of ${values.join(', ')}`);
}

/** `check`, or absent (`undefined`). */
export function optional(check: Check): Check {
  return (v, at) => (v === undefined ? undefined : check(v, at));
}

/** An array whose every item passes `check`. */
export function arrayOf(check: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return `${at}: expected an array`;
    for (let i = 0; i < v.length; i++) {
      const problem = check(v[i], `${at}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A plain object whose listed fields pass their checks (other fields are not looked at). */
export function fields(checks: Readonly<Record<string, Check>>): Check {
  return (v, at) => {
    if (!isPlainObject(v)) return `${at}: expected an object`;
    for (const [key, check] of Object.entries(checks)) {
      const problem = check(v[key], `${at}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A plain object whose every value passes `check` (labels, env). */
export function recordOf(check: Check): Check {
  return (v, at) => {
    if (!isPlainObject(v)) return `${at}: expected an object`;
    for (const [key, value] of Object.entries(v)) {
      const problem = check(value, `${at}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A Map from strings to values that pass `check`. */
export function mapOf(check: Check): Check {
  return (v, at) => {
    if (!(v instanceof Map)) return `${at}: expected a Map`;
    for (const [key, value] of v) {
      if (typeof key !== 'string') return `${at}: expected string keys`;
      const problem = check(value, `${at}<${key}>`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** The first problem of several checks of the same value. */
export function all(...checks: readonly Check[]): Check {
  return (v, at) => {
    for (const check of checks) {
      const problem = check(v, at);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}
