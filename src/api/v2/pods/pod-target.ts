/**
 * What a path below `/v2/pods/` addresses. Pod ids contain slashes, so the routes take the whole
 * rest of the path and split Marathon's `::` suffixes off here:
 *
 * - `` → the pod list; `::status` → the status of every pod;
 * - `<id>` → one pod; `<id>::status`; `<id>::versions`; `<id>::versions/<version>`;
 * - `<id>::instances`; `<id>::instances/<instanceId>`;
 * - anything else (an unknown suffix, or a suffix without an id) → `unknown`.
 *
 * Ids come back absolute, without a trailing slash (`web/db/` → `/web/db`), as Marathon's
 * `toAbsolutePath` makes them; whether they are valid ids is not checked here.
 */
export type PodTarget =
  | { readonly kind: 'list' }
  | { readonly kind: 'allStatus' }
  | { readonly kind: 'pod'; readonly id: string }
  | { readonly kind: 'status'; readonly id: string }
  | { readonly kind: 'versions'; readonly id: string }
  | { readonly kind: 'version'; readonly id: string; readonly version: string }
  | { readonly kind: 'instances'; readonly id: string }
  | { readonly kind: 'instance'; readonly id: string; readonly instanceId: string }
  | { readonly kind: 'unknown' };

const SUFFIX = /^(.*?)::(status|versions|instances)(?:\/(.*))?$/;

/** Splits the part of the path after `/v2/pods/` (see {@link PodTarget}). */
export function podTargetOf(rest: string): PodTarget {
  const trimmed = rest.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return { kind: 'list' };
  if (trimmed === '::status') return { kind: 'allStatus' };
  const match = SUFFIX.exec(trimmed);
  if (match === null) return trimmed.includes('::') ? { kind: 'unknown' } : { kind: 'pod', id: absolutePodId(trimmed) };
  const [, rawId, suffix, tail] = match;
  if (rawId.replace(/\/+$/, '') === '') return { kind: 'unknown' };
  const id = absolutePodId(rawId);
  return withSuffix(id, suffix, tail);
}

function withSuffix(id: string, suffix: string, tail: string | undefined): PodTarget {
  const sub = tail === undefined || tail === '' ? undefined : tail;
  switch (suffix) {
    case 'status':
      return sub === undefined ? { kind: 'status', id } : { kind: 'unknown' };
    case 'versions':
      return sub === undefined ? { kind: 'versions', id } : { kind: 'version', id, version: sub };
    default:
      return sub === undefined ? { kind: 'instances', id } : { kind: 'instance', id, instanceId: sub };
  }
}

/** `web/db`, `/web/db/` → `/web/db` (relative ids are resolved against the root). */
export function absolutePodId(raw: string): string {
  return `/${raw.replace(/^\/+|\/+$/g, '')}`;
}
