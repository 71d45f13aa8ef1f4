import type { Artifact } from '../../scheduler/model/fetch';
import { childPointer } from './json-pointer';
import { WireObject } from './wire-object';

/**
 * Reads a list of artifacts (an app's `fetch`, a pod container's `artifacts`): each an object with
 * a `uri`, the flags `extract`, `executable` and `cache` (not given: true, false, false, Marathon's
 * RAML `Artifact` defaults, which its writer always gives, and the Mesos fetcher's) and an
 * optional `destPath`. Absent → `[]`.
 */
export function artifactsFromWire(holder: WireObject, key: string): Artifact[] {
  const list = holder.array(key) ?? [];
  return list.flatMap((item, i) => {
    const a = WireObject.of(item, childPointer(holder.pathOf(key), i), holder.sink);
    const uri = a?.requiredString('uri');
    const extract = a?.optionalBoolean('extract');
    const executable = a?.optionalBoolean('executable');
    const cache = a?.optionalBoolean('cache');
    const destPath = a?.optionalString('destPath');
    if (uri === undefined) return [];
    return [{
      uri,
      extract: extract ?? true,
      executable: executable ?? false,
      cache: cache ?? false,
      ...(destPath === undefined ? {} : { destPath }),
    }];
  });
}
