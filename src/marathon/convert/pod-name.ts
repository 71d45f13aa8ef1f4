import type { WireObject } from './wire-object';

/** Names of pod containers, endpoints and volumes: DNS-label-like, as Marathon's RAML `Name`. */
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Reads a required name field (`name` of a pod container, endpoint or volume): lowercase letters,
 * digits and `-`, not starting or ending with `-`. Missing → `error.path.missing`; bad →
 * `error.pattern`.
 */
export function podNameFromWire(holder: WireObject, key: string): string | undefined {
  if (!holder.has(key)) {
    holder.fail(key, 'error.path.missing');
    return undefined;
  }
  const name = holder.optionalString(key);
  if (name === undefined) return undefined;
  if (NAME.test(name)) return name;
  holder.fail(key, 'error.pattern');
  return undefined;
}
