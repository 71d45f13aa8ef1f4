import { checkedAppFromWire, checkedPodFromWire } from '../../src/marathon/convert/checked-from-wire';
import type { ConvertResult } from '../../src/marathon/convert/convert-result';
import type { RunSpec } from '../../src/scheduler/model/run-spec';

/** Converts one app or pod definition of a scenario with the API's limits, rules and defaults. */
export function convertDefinition(
  kind: 'app' | 'pod', definition: Readonly<Record<string, unknown>>, defaultRole: string, versionIso: string,
): ConvertResult<RunSpec> {
  const ctx = { defaultRole, versionIso };
  // pacer's limits apply to scenario files too (docs/limits.md); the rest is the converter's.
  return kind === 'app' ? checkedAppFromWire(definition, ctx, 'limits') : checkedPodFromWire(definition, ctx, 'limits');
}
