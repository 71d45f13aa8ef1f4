/** A JSON object being written. */
export type JsonObject = Record<string, unknown>;

/** A copy of a string map (labels, environment), `{}` for none. */
export function stringMapJson(map: Readonly<Record<string, string>>): Record<string, string> {
  return { ...map };
}

/** True for a map without entries. */
export function isEmptyMap(map: Readonly<Record<string, unknown>> | undefined): boolean {
  if (map === undefined) return true;
  for (const _key in map) return false;
  return true;
}

/** Milliseconds as the seconds Marathon writes (`3000` → `3`, `2500` → `2.5`). */
export function seconds(ms: number): number {
  return ms / 1000;
}
