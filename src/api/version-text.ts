import { isoTime } from '../scheduler/index';

/**
 * A version as the core keys its histories (`2021-07-27T14:40:33.123Z`), from any ISO 8601 text a
 * client sends (`2021-07-27T14:40:33Z`, an offset, …); undefined when it is not a date. Reading
 * the client's text is the API's job (the core has no `Date`); the versions themselves are stamped
 * by the core only.
 */
export function canonicalVersion(text: string): string | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : isoTime(ms);
}

/** {@link canonicalVersion}, or the text as given when it is not a date (a lookup then finds nothing). */
export function versionKey(text: string): string {
  return canonicalVersion(text) ?? text;
}
