import type { UnreachablePolicy } from '../../scheduler/model/run-spec';
import type { WireObject } from './wire-object';

/** Enabled unreachable strategy in seconds, as written on the wire. */
export interface UnreachableSeconds {
  readonly inactiveAfterSeconds: number;
  readonly expungeAfterSeconds: number;
}

/** Apps: replace and expunge at once (Marathon 1.11's `{0, 0}`). */
export const APP_UNREACHABLE_DEFAULT: UnreachableSeconds = { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 };

/** Pods: 15 minutes, one week (service-spec 2.3, as resolved in spec/README.md). */
export const POD_UNREACHABLE_DEFAULT: UnreachableSeconds = { inactiveAfterSeconds: 900, expungeAfterSeconds: 604800 };

/**
 * Reads the unreachable strategy at `holder[key]`: `"disabled"` (any case) or
 * `{inactiveAfterSeconds, expungeAfterSeconds}` (missing fields take the defaults; both are
 * non-negative integers with inactive ≤ expunge). Resident run specs default to, and must keep,
 * `"disabled"`.
 */
export function unreachableFromWire(
  holder: WireObject | undefined,
  key: string,
  defaults: UnreachableSeconds,
  residentNoun: 'apps' | 'pods' | undefined,
): UnreachablePolicy {
  const raw = holder?.raw[key];
  if (holder === undefined || raw === undefined || raw === null) {
    return residentNoun !== undefined ? disabled() : enabled(defaults);
  }
  if (typeof raw === 'string') {
    if (raw.toLowerCase() !== 'disabled') holder.fail(key, 'unreachableStrategy must be "disabled" or an object');
    return disabled();
  }
  const obj = holder.child(key);
  if (obj === undefined) return enabled(defaults);
  if (residentNoun !== undefined) {
    holder.fail(key, `unreachableStrategy must be disabled for ${residentNoun} with persistent volumes`);
  }
  return enabled(readSeconds(obj, defaults));
}

function readSeconds(obj: WireObject, defaults: UnreachableSeconds): UnreachableSeconds {
  const rule = { min: 0, integer: true };
  const inactiveAfterSeconds = obj.number('inactiveAfterSeconds', defaults.inactiveAfterSeconds, rule);
  const expungeAfterSeconds = obj.number('expungeAfterSeconds', defaults.expungeAfterSeconds, rule);
  if (inactiveAfterSeconds > expungeAfterSeconds) {
    obj.fail('inactiveAfterSeconds',
      `inactiveAfterSeconds (${inactiveAfterSeconds}) must be less or equal to expungeAfterSeconds, which is ${expungeAfterSeconds}`);
  }
  return { inactiveAfterSeconds, expungeAfterSeconds };
}

function disabled(): UnreachablePolicy {
  return { kind: 'disabled' };
}

function enabled(seconds: UnreachableSeconds): UnreachablePolicy {
  return { kind: 'enabled', inactiveAfterMs: seconds.inactiveAfterSeconds * 1000, expungeAfterMs: seconds.expungeAfterSeconds * 1000 };
}
