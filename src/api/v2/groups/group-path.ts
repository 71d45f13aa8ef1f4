import { resolvePathId } from '../../../scheduler/index';

/** What a `GET /v2/groups/…` path names (Marathon matches these forms in this order). */
export type GroupGetTarget =
  /** `…/apps`: every app below the group, a bare JSON array. */
  | { readonly kind: 'apps'; readonly groupId: string }
  /** `…/versions`: the group's stored versions, a bare JSON array. */
  | { readonly kind: 'versions'; readonly groupId: string }
  /** `…/versions/{version}`: the group as it was at a stored version. */
  | { readonly kind: 'version'; readonly groupId: string; readonly version: string }
  /** The group itself. */
  | { readonly kind: 'group'; readonly groupId: string };

/**
 * Reads the path after `/v2/groups/` of a GET (Marathon's GroupsResource path matchers, fact 69):
 * `prod/apps` and `apps` → the apps below `/prod` and `/`; `prod/versions` and `versions` → the
 * versions; `prod/versions/<ts>` and `versions/<ts>` → one version; anything else → the group.
 * `versions` is reserved as an id's last segment and no change creates a group ending in it
 * (`scheduler/groups/reserved-new-group.ts`), so no group is hidden by the forms (but one stored
 * before that rule); a group whose last segment is `apps` is, as in Marathon.
 */
export function groupGetTarget(rest: string): GroupGetTarget {
  const path = rest.replace(/^\/+|\/+$/g, '');
  const apps = /^(?:(.+)\/)?apps$/.exec(path);
  if (apps !== null) return { kind: 'apps', groupId: groupIdOf(apps[1]) };
  const versions = /^(?:(.+)\/)?versions$/.exec(path);
  if (versions !== null) return { kind: 'versions', groupId: groupIdOf(versions[1]) };
  const version = /^(?:(.+)\/)?versions\/(.+)$/.exec(path);
  if (version !== null) return { kind: 'version', groupId: groupIdOf(version[1]), version: version[2] };
  return { kind: 'group', groupId: groupIdOf(path) };
}

/** The absolute group id of a URL path (`prod/web` → `/prod/web`; empty → `/`). */
export function groupIdOf(path: string | undefined): string {
  return resolvePathId(path ?? '', '/');
}
