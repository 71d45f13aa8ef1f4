import type { CommandURI } from '../codec/mesos-model';
import { booleanOf, objectsOf, stringOf } from './wire-read';

/**
 * An app's `fetch` list or a pod container's `artifacts` (spec 2.2: `uri`, `extract`,
 * `executable`, `cache`, `destPath`) as the `CommandInfo.uris` the Mesos fetcher downloads into
 * the sandbox (mesos-v1-scheduler-api.md §5.2). `destPath` becomes `output_file`; flags that are
 * not given are left to Mesos's defaults (`extract` true). Entries without a `uri` are skipped.
 */
export function fetchUris(list: unknown): CommandURI[] {
  return objectsOf(list).flatMap((f) => {
    const value = stringOf(f.uri);
    if (value === undefined) return [];
    const uri: CommandURI = { value };
    const executable = booleanOf(f.executable);
    const extract = booleanOf(f.extract);
    const cache = booleanOf(f.cache);
    const outputFile = stringOf(f.destPath);
    if (executable !== undefined) uri.executable = executable;
    if (extract !== undefined) uri.extract = extract;
    if (cache !== undefined) uri.cache = cache;
    if (outputFile !== undefined) uri.outputFile = outputFile;
    return [uri];
  });
}
