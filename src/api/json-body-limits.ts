import { type ApiError, malformedJson, unsupportedMediaType } from './errors';
import { unsupportedJsonCharset } from './json-charset';
import { jsonDepthExceeds } from './json-depth';
import { MAX_JSON_DEPTH } from '../marathon/schemas/limits';

/**
 * A JSON request body's text, or why it is refused before it is parsed (docs/limits.md), in this
 * order:
 * - a charset other than UTF-8 → 415 (first: a UTF-16 body is not malformed UTF-8 but another
 *   encoding);
 * - bytes that are not UTF-8 → 400 "Invalid JSON" (the shape of a parse error, fact 5; Jackson,
 *   under Marathon, stops at the first invalid byte as well). Decoding with replacement characters
 *   instead would store a string the client never sent (issue 11.5: bodies are UTF-8 only). A byte
 *   order mark is kept, so that the parser refuses it as before;
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
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return malformedJson(`Nesting depth exceeds ${MAX_JSON_DEPTH}`);
  return text;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
