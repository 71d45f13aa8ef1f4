/**
 * Whether any field of `next` differs from `prev` (`!==`, one level): what a row component of
 * plain values compares to know, without rendering, that it shows the same as before.
 */
export function shallowChanged<T extends object>(prev: T, next: T): boolean {
  const keys = Object.keys(next) as (keyof T)[];
  if (keys.length !== Object.keys(prev).length) return true;
  return keys.some((k) => next[k] !== prev[k]);
}
