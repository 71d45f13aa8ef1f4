/** Marathon's message for a fetch URI Java's `java.net.URI` cannot parse (`Validation.uriIsValid`). */
export const URI_SYNTAX_MESSAGE = 'URI has invalid syntax.';

/** Characters `java.net.URI` never takes unescaped: controls, space and `"<>\^`{|}`. */
const ILLEGAL = /[\u0000-\u0020"<>\\^`{|}\u007f-\u009f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** A `%` not followed by two hexadecimal digits. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** A scheme as RFC 2396 has it: a letter, then letters, digits, `+`, `-`, `.`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/**
 * Whether `java.net.URI` would parse `uri`, which is what Marathon asks of an app's fetch URIs
 * (`new URI(uri)`, else `URI has invalid syntax.`): the character rules (no control, space or
 * `"<>\^`{|}`, a `%` only as an escape, one `#`), a scheme before the first `:` that comes before
 * any `/`, `?` or `#`, and an authority after `scheme://`. An approximation of Java's parser on
 * what a fetcher could never fetch anyway; `[` and `]` (IPv6 hosts) and other non-ASCII
 * characters are let through, as Java lets them through in most places.
 */
export function isJavaUri(uri: string): boolean {
  if (ILLEGAL.test(uri) || BAD_ESCAPE.test(uri)) return false;
  if (uri.indexOf('#') !== uri.lastIndexOf('#')) return false;
  const colon = uri.search(/[:/?#]/);
  if (colon >= 0 && uri[colon] === ':') {
    if (!SCHEME.test(uri.slice(0, colon))) return false;
    const rest = uri.slice(colon + 1);
    if (rest === '' || rest === '//') return false;
  }
  return true;
}
