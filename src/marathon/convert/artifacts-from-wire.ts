import type { Artifact } from '../../scheduler/model/fetch';
import { childPointer } from './json-pointer';
import { WireObject } from './wire-object';

/**
 * Reads a list of artifacts (an app's `fetch`, a pod container's `artifacts`): each an object with
 * a `uri` and the optional flags `extract`, `executable`, `cache` and `destPath`, kept as given
 * (a flag not given is left to the fetcher's default). Absent → `[]`.
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
      ...(extract === undefined ? {} : { extract }),
      ...(executable === undefined ? {} : { executable }),
      ...(cache === undefined ? {} : { cache }),
      ...(destPath === undefined ? {} : { destPath }),
    }];
  });
}
