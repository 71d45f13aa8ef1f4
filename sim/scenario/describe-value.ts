/** A short description of a value for `got …` in messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  const keys = Object.keys(value as object);
  return keys.length === 0 ? 'an empty mapping' : `a mapping with ${keys.length === 1 ? 'field' : 'fields'} ${keys.join(', ')}`;
}
