import { type ApiError, malformedJson, unsupportedMediaType } from './errors';
import { unsupportedJsonCharset } from './json-charset';
import { jsonDepthExceeds } from './json-depth';
import { MAX_JSON_DEPTH } from '../marathon/schemas/limits';

/**
 * Why a JSON request body is refused before it is parsed, or undefined when it may be parsed
 * (docs/limits.md): a charset other than UTF-8 → 415; arrays and objects nested deeper than
 * `MAX_JSON_DEPTH` → 400 "Invalid JSON" (the shape of a parse error, fact 5), so that the
 * recursive code after the parser (schema checks, converters, group trees) never runs out of stack.
 */
export function refusedJsonBody(contentType: string | undefined, text: string): ApiError | undefined {
  const charset = unsupportedJsonCharset(contentType);
  if (charset !== undefined) return unsupportedMediaType(`Unsupported charset ${charset}: JSON bodies must be UTF-8`);
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return malformedJson(`Nesting depth exceeds ${MAX_JSON_DEPTH}`);
  return undefined;
}
