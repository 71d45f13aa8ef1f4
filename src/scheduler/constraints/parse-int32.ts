const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/**
 * Parses an integer constraint value (MAX_PER, GROUP_BY) the way Marathon does (Scala's `toInt`,
 * i.e. Java's `Integer.parseInt`): an optional sign and decimal digits, nothing else (no spaces,
 * no fraction, no exponent), within the 32-bit signed range. Undefined when the text is not such
 * an integer, so that validation and compilation agree on what "an integer string" is.
 */
export function parseInt32(text: string): number | undefined {
  if (!INTEGER_TEXT.test(text)) return undefined;
  const n = Number(text);
  return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
}

/** Largest 32-bit signed integer: what Marathon's GROUP_BY reads for the value `inf`. */
export const INT32_MAX_VALUE = INT32_MAX;
