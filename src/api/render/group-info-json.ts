import type { ApiDeps } from '../api-deps';
import type { Group } from '../../scheduler/groups/group';
import { comparePathIds, isTopLevel } from '../../scheduler/groups/path-id';
import type { PodSpec } from '../../scheduler/model/run-spec';
import { appsJson } from './app-json';
import type { GroupEmbed } from './group-embed';
import { podJson } from './pod-json';
import { podStatusJson } from './pod-status-json';

/** How a group view renders its pods. */
export type PodView = 'status' | 'definition';

/**
 * Marathon's GroupInfo (facts 67, 68): `{id, apps, pods, groups, dependencies, version}` plus
 * `enforceRole` on top-level groups only (left out on the root and deeper groups). The three
 * lists are always written, `[]` when empty or not embedded; subgroups are rendered with the same
 * embeds; children are listed in path id order.
 *
 * - apps: {@link appJson} with only the per-app embeds asked for (no counts by default, fact 67);
 * - pods: pod status objects (fact 67, fact 81) for a live view; `podView: 'definition'` renders
 *   the stored pod definitions instead, for views of a stored root version, which has no live
 *   status.
 */
export function groupInfoJson(deps: ApiDeps, group: Group, embed: GroupEmbed, podView: PodView = 'status'): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: group.id,
    apps: embed.apps ? appsJson(deps, sorted(group.apps), embed.app) : [],
    pods: embed.pods ? sorted(group.pods).map((pod) => podView === 'status' ? podStatusOf(deps, pod) : podJson(deps, pod)) : [],
    groups: embed.groups ? sorted(group.groups).map((child) => groupInfoJson(deps, child, embed, podView)) : [],
    dependencies: [...group.dependencies],
    version: group.version,
  };
  if (isTopLevel(group.id)) json.enforceRole = group.enforceRole;
  return json;
}

function podStatusOf(deps: ApiDeps, pod: PodSpec): Record<string, unknown> {
  // A pod of the current root can always be queried; the definition is a safe fallback.
  return podStatusJson(deps, pod.id) ?? podJson(deps, pod);
}

function sorted<V extends { readonly id: string }>(map: ReadonlyMap<string, V>): V[] {
  return [...map.values()].sort((a, b) => comparePathIds(a.id, b.id));
}
