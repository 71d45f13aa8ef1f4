import { childPointer } from './json-pointer';
import { isRecord, type WireObject } from './wire-object';

/** A string map (labels, env): the plain entries, and the ones backed by a secret. */
export interface ConvertedStringMap {
  /** The plain string entries, in the order given. */
  readonly values: Readonly<Record<string, string>>;
  /** Entries given as `{"secret": "<name>"}` (environments only): variable name → secret name. */
  readonly secrets: Readonly<Record<string, string>>;
}

/** Options of {@link stringMapFromWire}. */
export interface StringMapRules {
  /** Allow `{"secret": "<name>"}` values (environment variables backed by secrets). */
  readonly secretRefs?: boolean;
  /**
   * The secrets the definition declares (its `secrets` names): a reference to any other is an
   * error, as Marathon's `SecretValidation.secretRefValidator` ("references an undefined secret").
   */
  readonly declaredSecrets?: ReadonlySet<string>;
  /** Names must be capitalized: upper-case letters, digits and `_`, not starting with a digit. */
  readonly capitalizedNames?: boolean;
  /**
   * Names must not be empty (an app's `env`, Marathon's `EnvVarValidation.validEnvVar`; reported at
   * `<map>/keys(i)` as Marathon's accord does): no process takes a variable without a name.
   */
  readonly nonEmptyNames?: boolean;
}

const CAPITALIZED = /^[A-Z_][A-Z0-9_]*$/;

/** Message for a pod environment variable name that is not capitalized (spec 2.1, 2.2). */
export const ENV_NAME_MESSAGE =
  'environment variable names must be capitalized: upper-case letters, digits and _, not starting with a digit';

/**
 * Reads a string-to-string object at `holder[key]` (labels, env, environment). Absent → `{}`.
 * Entries are kept in the order given.
 */
export function stringMapFromWire(holder: WireObject | undefined, key: string, rules: StringMapRules = {}): ConvertedStringMap {
  const obj = holder?.child(key);
  const values: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  if (obj === undefined) return { values, secrets };
  Object.keys(obj.raw).forEach((name, i) => {
    if (rules.nonEmptyNames === true && name === '') obj.sink.add(childPointer(childPointer(obj.path, 'keys'), i), 'must not be empty');
  });
  for (const [name, value] of Object.entries(obj.raw)) {
    const path = childPointer(obj.path, name);
    if (rules.capitalizedNames === true && !CAPITALIZED.test(name)) obj.sink.add(path, ENV_NAME_MESSAGE);
    if (typeof value === 'string') values[name] = value;
    else if (rules.secretRefs === true && isRecord(value) && typeof value.secret === 'string') {
      secrets[name] = value.secret;
      if (rules.declaredSecrets !== undefined && !rules.declaredSecrets.has(value.secret)) {
        obj.sink.add(childPointer(path, 'secret'), `references an undefined secret named '${value.secret}'`);
      }
    }
    else obj.sink.add(path, 'error.expected.jsstring');
  }
  return { values, secrets };
}

/** A plain string map (labels): {@link stringMapFromWire}'s values. */
export function labelsFromWire(holder: WireObject | undefined, key = 'labels'): Readonly<Record<string, string>> {
  return stringMapFromWire(holder, key).values;
}
