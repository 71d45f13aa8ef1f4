import { checkedAppFromWire, checkedPodFromWire } from '../../src/marathon/convert/checked-from-wire';
import type { ConvertResult } from '../../src/marathon/convert/convert-result';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { Scenario } from '../scenario/scenario';

/** Converts one app or pod definition of a scenario with the API's limits, rules and defaults. */
export function convertDefinition(
  kind: 'app' | 'pod', definition: Readonly<Record<string, unknown>>, defaultRole: string, versionIso: string,
): ConvertResult<RunSpec> {
  const ctx = { defaultRole, versionIso };
  // pacer's limits apply to scenario files too (docs/limits.md); the rest is the converter's.
  return kind === 'app' ? checkedAppFromWire(definition, ctx, 'limits') : checkedPodFromWire(definition, ctx, 'limits');
}

/**
 * Converts every definition of the timeline once before anything runs, so that a bad definition
 * fails the file up front (nothing runs half-parsed). Errors name the file and the JSON pointer,
 * and the line when `lineOf` (from `loadScenario`) is given. (Shapes, types and unknown fields
 * were checked when the file was loaded; these are the API converter's semantic rules.)
 */
export function checkDefinitions(fileName: string, scenario: Scenario, lineOf?: (pointer: string) => number | undefined): string[] {
  const errors: string[] = [];
  for (const step of scenario.timeline) {
    const a = step.action;
    const refs = a.type === 'app' || a.type === 'pod' ? [{ kind: a.type, definition: a.definition, pointer: a.pointer }] : a.type === 'deploy' ? a.definitions : [];
    for (const ref of refs) {
      const result = convertDefinition(ref.kind, ref.definition, scenario.options.defaultRole, '2026-01-01T00:00:00.000Z');
      if (result.ok) continue;
      for (const e of result.errors) {
        const path = e.path === '/' ? '' : e.path;
        const line = lineOf?.(`${ref.pointer}${path}`);
        for (const msg of e.errors) errors.push(`${fileName}: ${ref.pointer}${path}: ${msg}${line === undefined ? '' : ` (line ${line})`}`);
      }
    }
  }
  return errors;
}
