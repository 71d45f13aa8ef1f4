import type { RunSpec } from '../model/run-spec';

/**
 * True when two versions of a run spec differ only in their instance count (and version stamps):
 * such a change scales; any other change restarts (Marathon's ScaleApplication vs
 * RestartApplication rule). One definition object is the same config without comparing: a plan
 * compares every run spec of the old and the new root, and a root change shares every definition
 * it did not touch, so this keeps planning one change from serializing all run specs twice.
 */
export function sameConfig(a: RunSpec, b: RunSpec): boolean {
  if (a.definition === b.definition) return true;
  return canonical(stripScaling(a.definition)) === canonical(stripScaling(b.definition));
}

function stripScaling(def: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { instances: _i, version: _v, versionInfo: _vi, scaling, ...rest } = def as Record<string, unknown>;
  if (scaling !== null && typeof scaling === 'object') {
    const { instances: _si, ...scalingRest } = scaling as Record<string, unknown>;
    return { ...rest, scaling: scalingRest };
  }
  return rest;
}

/** JSON with object keys sorted, so key order never makes two equal definitions differ. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
