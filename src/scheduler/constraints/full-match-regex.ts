/**
 * A regex that tests whether a whole string matches `pattern`, like Java's `String.matches`
 * (which Marathon uses for LIKE/UNLIKE): `^(?:pattern)$`, no flags. Undefined when the pattern
 * does not compile as a JavaScript regular expression.
 *
 * The pattern is compiled alone first: wrapping an unbalanced pattern such as `a)|(b` could
 * otherwise produce a valid regex with a different meaning. Call once per constraint (at compile
 * or validation time), never per offer.
 */
export function fullMatchRegex(pattern: string): RegExp | undefined {
  try {
    new RegExp(pattern);
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return undefined;
  }
}
