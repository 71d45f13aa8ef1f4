import type { Artifact } from '../../scheduler/model/fetch';
import { artifactsFromWire } from './artifacts-from-wire';
import { childPointer } from './json-pointer';
import type { WireObject } from './wire-object';

const ARCHIVE_SUFFIXES = ['.tgz', '.tar.gz', '.tbz2', '.tar.bz2', '.txz', '.tar.xz', '.zip'];

/**
 * The app's `fetch` list. The deprecated `uris` list is translated into `fetch` entries
 * (`extract` true for archive suffixes, `executable` and `cache` false); giving both non-empty is
 * an error. `[]` when the app fetches nothing.
 */
export function appFetchFromWire(app: WireObject): Artifact[] {
  const uris = app.array('uris') ?? [];
  const fetch = artifactsFromWire(app, 'fetch');
  if (uris.length === 0) return fetch;
  if (fetch.length > 0) {
    app.sink.add('', 'cannot specify both uris and fetch fields');
    return fetch;
  }
  return uris.map((uri, i) => {
    if (typeof uri !== 'string') app.sink.add(childPointer(app.pathOf('uris'), i), 'error.expected.jsstring');
    const text = String(uri);
    return { uri: text, extract: ARCHIVE_SUFFIXES.some((s) => text.endsWith(s)), executable: false, cache: false };
  });
}
