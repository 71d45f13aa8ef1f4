import type { Artifact } from '../../scheduler/model/fetch';
import { artifactsFromWire } from './artifacts-from-wire';
import { childPointer } from './json-pointer';
import { isJavaUri, URI_SYNTAX_MESSAGE } from './uri-syntax';
import type { WireObject } from './wire-object';

const ARCHIVE_SUFFIXES = ['.tgz', '.tar.gz', '.tbz2', '.tar.bz2', '.txz', '.tar.xz', '.zip'];

/**
 * The app's `fetch` list. The deprecated `uris` list is translated into `fetch` entries
 * (`extract` true for archive suffixes, `executable` and `cache` false); giving both non-empty is
 * an error. `[]` when the app fetches nothing. With `syntaxRules` (a definition a client sends) each
 * URI must be one `java.net.URI` parses, as Marathon's `ArtifactValidation` and `validateOldAppAPI`
 * ask (at `/fetch(i)/uri`, `/uris(i)`): the Mesos fetcher could never fetch another, and the task
 * would fail at every launch.
 */
export function appFetchFromWire(app: WireObject, syntaxRules = false): Artifact[] {
  const uris = app.array('uris') ?? [];
  const fetch = artifactsFromWire(app, 'fetch');
  if (syntaxRules) {
    (app.array('fetch') ?? []).forEach((a, i) => {
      const uri = typeof a === 'object' && a !== null ? (a as { uri?: unknown }).uri : undefined;
      if (typeof uri === 'string' && !isJavaUri(uri)) app.sink.add(childPointer(childPointer(app.pathOf('fetch'), i), 'uri'), URI_SYNTAX_MESSAGE);
    });
    uris.forEach((uri, i) => {
      if (typeof uri === 'string' && !isJavaUri(uri)) app.sink.add(childPointer(app.pathOf('uris'), i), URI_SYNTAX_MESSAGE);
    });
  }
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
