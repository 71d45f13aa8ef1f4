/**
 * Marathon's way of writing the path of an offending field (fact 3): `/` for the object itself,
 * field names separated by `/`, list positions as `(n)` straight after the field
 * (`/healthChecks(0)/portIndex`, `/fetch(1)/uri`). Converts a JSON pointer (RFC 6901, as ajv and
 * the converters produce them: `/healthChecks/0/portIndex`) into that form; a position in a
 * top-level list (bulk bodies) is written `/(0)/id`. A numeric key right
 * below an object (a label named `0`) cannot be told from a list position; it is written as one.
 */
export function marathonPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '/';
  if (!pointer.startsWith('/')) return pointer;
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!/^\d+$/.test(segment)) out += `/${segment}`;
    else out += out === '' ? `/(${segment})` : `(${segment})`;
  }
  return out === '' ? '/' : out;
}
