/**
 * The JSON pointer (RFC 6901) of `key` below `base`. The root is the empty string `''`; `~` and `/`
 * inside keys are escaped as `~0` and `~1`.
 */
export function childPointer(base: string, key: string | number): string {
  const escaped = String(key).replace(/~/g, '~0').replace(/\//g, '~1');
  return `${base}/${escaped}`;
}
