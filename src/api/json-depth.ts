/**
 * True when JSON text nests arrays and objects more than `limit` deep (`[[1]]` is 2 deep). One
 * pass over the characters, without recursion and without parsing, so that it is safe on any
 * input: strings (with their escapes) are skipped, and the scan stops at the first level beyond
 * the limit. Text that is not JSON is measured the same way; the parser rejects it afterwards.
 * Run before `JSON.parse`, it keeps the recursive code after the parser (schema checks, the
 * converters, group trees) within a known depth (docs/limits.md, `MAX_JSON_DEPTH`).
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
