import type { Artifact } from '../../../scheduler/model/fetch';
import type { CommandURI } from '../codec/mesos-model';

/**
 * An app's `fetch` list or a pod container's `artifacts` (spec 2.2: `uri`, `extract`,
 * `executable`, `cache`, `destPath`) as the `CommandInfo.uris` the Mesos fetcher downloads into
 * the sandbox (mesos-v1-scheduler-api.md §5.2). `destPath` becomes `output_file`; flags that are
 * not given are left to Mesos's defaults (`extract` true). Entries without a `uri` are skipped.
 */
export function fetchUris(list: readonly Artifact[]): CommandURI[] {
  return list.flatMap((f) => {
    if (f.uri === '') return [];
    const uri: CommandURI = { value: f.uri };
    if (f.executable !== undefined) uri.executable = f.executable;
    if (f.extract !== undefined) uri.extract = f.extract;
    if (f.cache !== undefined) uri.cache = f.cache;
    if (f.destPath !== undefined && f.destPath !== '') uri.outputFile = f.destPath;
    return [uri];
  });
}
