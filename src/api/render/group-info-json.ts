import type { ApiDeps } from '../api-deps';
import { comparePathIds, isTopLevel, type Group } from '../../scheduler/index';
import type { AppSpec } from '../../scheduler/model/app';
import type { PodSpec } from '../../scheduler/model/pod';
import { appDefinitionJson } from '../../marathon/render/app-definition-json';
import { appDefinitionText, appsJson } from './app-json';
import { DEFAULT_GROUP_EMBED, type GroupEmbed } from './group-embed';
import { podDefinitionJson } from '../../marathon/render/pod-definition-json';
import { podStatusJson } from './pod-status-json';

/** How a group view renders its pods. */
export type PodView = 'status' | 'definition';

/**
 * Marathon's GroupInfo (facts 67, 68): `{id, apps, pods, groups, dependencies, version}` plus
 * `enforceRole` on top-level groups only (left out on the root and deeper groups). The three
 * lists are always written, `[]` when empty or not embedded; subgroups are rendered with the same
 * embeds; children are listed in path id order.
 *
 * - apps: {@link appsJson} with only the per-app embeds asked for (no counts by default, fact 67);
 * - pods: pod status objects (fact 67, fact 81) for a live view; `podView: 'definition'` renders
 *   the stored pod definitions instead, for views of a stored root version, which has no live
 *   status.
 */
export function groupInfoJson(deps: ApiDeps, group: Group, embed: GroupEmbed, podView: PodView = 'status'): Record<string, unknown> {
  const leaves: GroupLeaves = {
    apps: (apps) => appsJson(deps, apps, embed.app),
    pod: podView === 'status' ? (pod) => podStatusJson(deps, pod.id) ?? podDefinitionJson(pod) : (pod) => podDefinitionJson(pod),
    group: (child) => groupInfoJson(deps, child, embed, podView),
  };
  return groupJson(group, embed, leaves);
}

/**
 * A group as `GET /v2/groups` renders it by default (every group, app and pod, nothing per app),
 * with its pods as definitions: the view of a root that has no live state, such as the `original`
 * and `target` of a deployment plan (`deployment_info` and the step events; Marathon's
 * `DeploymentPlanWrites` renders them with the same group writer as the groups endpoint). Groups
 * are immutable and a change rebuilds only the groups on its path, so each group object is
 * rendered once and shared by every root and event that holds it (do not mutate the result).
 */
export function groupDefinitionJson(group: Group): Record<string, unknown> {
  let json = definitionViews.get(group);
  if (json === undefined) {
    json = groupJson(group, DEFAULT_GROUP_EMBED, DEFINITION_LEAVES);
    definitionViews.set(group, json);
  }
  return json;
}

/** How a view renders what a group holds. */
interface GroupLeaves {
  apps(apps: readonly AppSpec[]): Record<string, unknown>[];
  pod(pod: PodSpec): Record<string, unknown>;
  group(child: Group): Record<string, unknown>;
}

const DEFINITION_LEAVES: GroupLeaves = {
  apps: (apps) => apps.map((app) => appDefinitionJson(app)),
  pod: (pod) => podDefinitionJson(pod),
  group: groupDefinitionJson,
};

const definitionViews = new WeakMap<Group, Record<string, unknown>>();

/** The one GroupInfo writer: the group's shape, with `leaves` rendering its content. */
function groupJson(group: Group, embed: GroupEmbed, leaves: GroupLeaves): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: group.id,
    apps: embed.apps ? leaves.apps(sorted(group.apps)) : [],
    pods: embed.pods ? sorted(group.pods).map(leaves.pod) : [],
    groups: embed.groups ? sorted(group.groups).map(leaves.group) : [],
    dependencies: [...group.dependencies],
    version: group.version,
  };
  if (isTopLevel(group.id)) json.enforceRole = group.enforceRole;
  return json;
}

/**
 * `JSON.stringify(groupInfoJson(deps, group, DEFAULT_GROUP_EMBED))` byte for byte — what `GET
 * /v2/groups` answers without `embed` (and the web UI's groups view) — for a group with no pod
 * anywhere below it (a pod's view is its live status); undefined when there is one. Kept per
 * group object: groups are immutable and a change rebuilds only the groups on its path, so an
 * unchanged root answers its kept text, and a change writes again only the texts on its path,
 * each joined from its children's kept texts and its apps' kept definition texts
 * ({@link appDefinitionText}). 10,000 apps: ~6 MB that fastify serialized from objects at every
 * read (170–230 ms on the 2-core VM, loaded, 2026-12-01).
 */
export function groupDefinitionText(group: Group): string | undefined {
  const kept = definitionTexts.get(group);
  if (kept !== undefined) return kept ?? undefined;
  let text: string | null = null;
  if (group.pods.size === 0) {
    const children: string[] = [];
    for (const child of sorted(group.groups)) {
      const childText = groupDefinitionText(child);
      if (childText === undefined) break;
      children.push(childText);
    }
    if (children.length === group.groups.size) {
      text = `{"id":${JSON.stringify(group.id)},"apps":[${sorted(group.apps).map(appDefinitionText).join(',')}],"pods":[],"groups":[${children.join(',')}],`
        + `"dependencies":${JSON.stringify([...group.dependencies])},"version":${JSON.stringify(group.version)}`
        + `${isTopLevel(group.id) ? `,"enforceRole":${JSON.stringify(group.enforceRole)}` : ''}}`;
    }
  }
  definitionTexts.set(group, text);
  return text ?? undefined;
}

/** Per group object: its {@link groupDefinitionText}, or null when a pod is below it. */
const definitionTexts = new WeakMap<Group, string | null>();

function sorted<V extends { readonly id: string }>(map: ReadonlyMap<string, V>): V[] {
  return [...map.values()].sort((a, b) => comparePathIds(a.id, b.id));
}
