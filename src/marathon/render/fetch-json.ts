import type { Artifact } from '../../scheduler/model/fetch';

/** An app's `fetch[]` or a pod container's `artifacts[]` entry: the fields given (unset flags left to the fetcher). */
export function artifactJson(a: Artifact): Record<string, unknown> {
  const json: Record<string, unknown> = { uri: a.uri };
  if (a.extract !== undefined) json.extract = a.extract;
  if (a.executable !== undefined) json.executable = a.executable;
  if (a.cache !== undefined) json.cache = a.cache;
  if (a.destPath !== undefined) json.destPath = a.destPath;
  return json;
}
