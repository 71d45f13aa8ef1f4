/**
 * One entry of a validation failure body (spec section 7, fact 3): a JSON-pointer-like `path` of the
 * offending field (`/role`) and its error strings. The API wraps entries in
 * `{"message":"Object is not valid","details":[…]}`.
 */
export interface ValidationDetail {
  readonly path: string;
  readonly errors: readonly string[];
}

/**
 * The refusal of a change for `details` (`invalid`, Marathon's "Object is not valid"): one shape
 * for every rule that refuses a root, whatever result type carries it.
 */
export function notValid(...details: ValidationDetail[]): { readonly ok: false; readonly error: 'invalid'; readonly message: 'Object is not valid'; readonly details: readonly ValidationDetail[] } {
  return { ok: false, error: 'invalid', message: 'Object is not valid', details };
}
