import { type ApiError, malformedJson, unsupportedMediaType } from './errors';
import { unsupportedJsonCharset } from './json-charset';
import { jsonDepthExceeds } from './json-depth';
import { MAX_JSON_DEPTH } from '../marathon/schemas/limits';
import { childPointer } from '../marathon/convert/json-pointer';

/**
 * A JSON request body's text, or why it is refused before it is parsed (docs/limits.md), in this
 * order:
 * - a charset other than UTF-8 → 415 (first: a UTF-16 body is not malformed UTF-8 but another
 *   encoding);
 * - bytes that are not UTF-8 → 400 "Invalid JSON" (the shape of a parse error, fact 5; Jackson,
 *   under Marathon, stops at the first invalid byte as well). Decoding with replacement characters
 *   instead would store a string the client never sent (issue 11.5: bodies are UTF-8 only). One
 *   UTF-8 byte order mark before the JSON text is skipped, as Jackson under Marathon skips it (RFC
 *   8259 §8.1 lets a parser ignore it; Windows tools such as PowerShell 5 write one): it was
 *   answered 400 `Unexpected token ' '`, naming a character the client cannot see;
 * - arrays and objects nested deeper than `MAX_JSON_DEPTH` → 400 "Invalid JSON", so that the
 *   recursive code after the parser (schema checks, converters, group trees) never runs out of
 *   stack.
 */
export function jsonBodyText(contentType: string | undefined, body: Buffer): string | ApiError {
  const charset = unsupportedJsonCharset(contentType);
  if (charset !== undefined) return unsupportedMediaType(`Unsupported charset ${charset}: JSON bodies must be UTF-8`);
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    return malformedJson('The request body is not valid UTF-8');
  }
  if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(BYTE_ORDER_MARK.length);
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return malformedJson(`Nesting depth exceeds ${MAX_JSON_DEPTH}`);
  return text;
}

/**
 * Where a parsed JSON body has an object key `__proto__` (a JSON pointer to the object holding it:
 * `/labels`, `/apps/0/env`, `/` for the body itself), or undefined. `JSON.parse` makes such a key an
 * own property, but every object copy after the parser (`out[key] = value`) sets the copy's
 * prototype instead: the key was silently lost (a label, a whole `env`), or read as fields the client
 * never sent. Such a body is refused (docs/limits.md, Requests). `text` is the body's text: only a
 * text that names the key, or has an escape that could spell it, is walked (without recursion).
 */
export function protoKeyAt(text: string, value: unknown): string | undefined {
  if (!text.includes(PROTO) && !text.includes('\\u')) return undefined;
  return pointerOfFirst(value, (node) => isObject(node) && !Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, PROTO));
}

/**
 * Where a parsed JSON body has a string (a value or an object key) holding the null character
 * U+0000 (a JSON pointer to it: `/env/A`, `/labels` for a key of `labels`), or undefined. No
 * command, environment variable, argument, label (labels reach the task's environment) or name
 * can hold one: it was accepted, stored, and then every launch failed on the local cluster (a
 * process's environment and arguments are C strings; a Mesos agent would cut the value at it). Such
 * a body is refused (docs/limits.md, Requests). JSON writes the character only as the escape
 * `\u0000` (a raw one is no JSON), so only a text with that escape is walked.
 */
export function nullCharacterAt(text: string, value: unknown): string | undefined {
  if (!text.includes('\\u0000')) return undefined;
  return pointerOfFirst(value, (node) => (typeof node === 'string' ? node.includes('\0') : isObject(node) && Object.keys(node).some((key) => key.includes('\0'))));
}

/**
 * The JSON pointer of the first value of a parsed body (`/` for the body itself) for which
 * `found` holds, depth first, without recursion; undefined when none does.
 */
function pointerOfFirst(value: unknown, found: (node: unknown) => boolean): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, at] = next;
    if (found(node)) return at === '' ? '/' : at;
    if (isObject(node)) for (const [key, child] of Object.entries(node)) pending.push([child, childPointer(at, key)]);
  }
  return undefined;
}

function isObject(node: unknown): node is object {
  return node !== null && typeof node === 'object';
}

const PROTO = '__proto__';
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BYTE_ORDER_MARK = '\uFEFF';
