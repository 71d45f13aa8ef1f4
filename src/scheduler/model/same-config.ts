import type { RunSpec } from './run-spec';

/** What a scale or a new version changes without changing the config. */
const SCALING_FIELDS: ReadonlySet<string> = new Set(['instances', 'version', 'versionInfo']);

/**
 * True when two versions of a run spec differ only in their instance count (and version stamps):
 * such a change scales; any other change restarts (Marathon's ScaleApplication vs
 * RestartApplication rule). A structural comparison of the run spec model: every field but
 * `instances`, `version` and `versionInfo`, key order ignored, an absent field equal to one that
 * is `undefined`. The same object is the same config without comparing: a root change shares every
 * run spec it did not touch, so planning one change compares only what it touched.
 */
export function sameConfig(a: RunSpec, b: RunSpec): boolean {
  if (a === b) return true;
  return sameObject(a as unknown as Readonly<Record<string, unknown>>, b as unknown as Readonly<Record<string, unknown>>, SCALING_FIELDS);
}

/** Structural equality of two values of the model (plain objects, arrays and primitives). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (Array.isArray(b)) return false;
  return sameObject(a as Readonly<Record<string, unknown>>, b as Readonly<Record<string, unknown>>);
}

function sameObject(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>, skip?: ReadonlySet<string>): boolean {
  for (const key in a) {
    if (skip?.has(key) === true) continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  for (const key in b) {
    if (skip?.has(key) === true || a[key] !== undefined) continue;
    if (b[key] !== undefined) return false;
  }
  return true;
}
