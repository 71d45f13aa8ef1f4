/** One thing wrong with a scenario file: where (a JSON pointer, `""` for the whole file) and what. */
export interface Problem {
  readonly pointer: string;
  readonly message: string;
}

/** Escapes one JSON pointer segment (`/web` → `~1web`). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends segments to a JSON pointer. */
export function childPointer(pointer: string, ...segments: readonly (string | number)[]): string {
  return pointer + segments.map((segment) => `/${pointerSegment(segment)}`).join('');
}
