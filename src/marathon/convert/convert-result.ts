/** One offending field: a JSON pointer (`/constraints/0`, `/` for the whole object) and its messages. */
export interface ConvertError {
  readonly path: string;
  readonly errors: readonly string[];
}

/**
 * The outcome of converting a wire definition: the normalized run spec, or every problem found
 * (collected, not just the first), in the shape of Marathon's validation `details`.
 */
export type ConvertResult<T> =
  | { readonly ok: true; readonly spec: T }
  | { readonly ok: false; readonly errors: readonly ConvertError[] };
