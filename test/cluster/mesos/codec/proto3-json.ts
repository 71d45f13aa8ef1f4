/**
 * Test-side normalizers, written independently of the codec: they turn the JSON renderings of the
 * samples into the model's conventions so the decoder's output can be compared with them.
 */

/** Fields of int64/uint64 type in the recorded samples (rendered as strings by the proto3 mapping). */
const INT64_FIELDS = new Set(['nanoseconds', 'begin', 'end']);
/** Fields of bytes type in the recorded samples (base64 in both JSON renderings). */
const BYTES_FIELDS = new Set(['uuid', 'data']);

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function leaf(key: string, value: unknown): unknown {
  if (INT64_FIELDS.has(key) && (typeof value === 'string' || typeof value === 'number')) return Number(value);
  if (BYTES_FIELDS.has(key) && typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64'));
  return value;
}

/**
 * A sample's JSON (proto3 mapping from pb/decoded/, or Mesos JSON from json/) in model form:
 * camelCase keys, int64 as numbers, bytes as Uint8Array, enums unchanged (names in both).
 */
export function toModelShape(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => toModelShape(item, key));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [camelCase(name), toModelShape(inner, name)]),
    );
  }
  return leaf(key, value);
}
