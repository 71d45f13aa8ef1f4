/** Charsets a JSON body may declare: UTF-8 (RFC 8259 §8.1) and its subset US-ASCII. */
const ACCEPTED = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * The charset a `Content-Type` header declares when it is not one JSON may be sent in, else
 * undefined (no charset parameter means UTF-8). `application/json; charset=utf-16` is such a
 * header: the body would be read as UTF-8 all the same, so it is refused (415) instead of being
 * misread (issue 11.5). Marathon decoded such bodies; RFC 8259 requires UTF-8 between systems.
 */
export function unsupportedJsonCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (!ACCEPTED.has(charset)) return charset;
  }
  return undefined;
}
