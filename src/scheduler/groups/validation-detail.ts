/**
 * One entry of a validation failure body (spec section 7, fact 3): a JSON-pointer-like `path` of the
 * offending field (`/role`) and its error strings. The API wraps entries in
 * `{"message":"Object is not valid","details":[…]}`.
 */
export interface ValidationDetail {
  readonly path: string;
  readonly errors: readonly string[];
}
