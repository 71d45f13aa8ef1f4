/**
 * Readers over a run spec's wire `definition` (plain JSON from the API converter). The core keeps
 * only what it schedules with; what a Mesos TaskInfo also needs (port names, fetch lists, images,
 * networks, labels of pod containers) is read from the definition with these total functions:
 * a value of the wrong shape reads as absent, never throws (the converter already validated it).
 */
export type WireRecord = Readonly<Record<string, unknown>>;

/** `value` when it is a JSON object, else undefined. */
export function objectOf(value: unknown): WireRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireRecord) : undefined;
}

/** `value` when it is an array, else an empty list. */
export function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The JSON objects of an array (other entries skipped). */
export function objectsOf(value: unknown): WireRecord[] {
  return arrayOf(value).flatMap((v) => {
    const o = objectOf(v);
    return o === undefined ? [] : [o];
  });
}

/** `value` when it is a non-empty string, else undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `value` when it is a finite number, else undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `value` when it is a boolean, else undefined. */
export function booleanOf(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** The string entries of a JSON object (`labels`, `env`); non-string values skipped. */
export function stringMapOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(objectOf(value) ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}
