/**
 * The whole number a command-line value spells, when it is digits only and from `min` to `max`
 * (`max` at most 2^53 − 1, so that two values never read as the same number); undefined
 * otherwise, for the caller to refuse in its own words. `npm run sim`'s and the swarm's options.
 */
export function wholeArg(v: string | undefined, min: number, max: number): number | undefined {
  const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return n >= min && n <= max && Number.isSafeInteger(n) ? n : undefined;
}
