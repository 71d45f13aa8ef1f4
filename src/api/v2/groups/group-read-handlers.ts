import type { ApiDeps } from '../../api-deps';
import { notFound, notFoundText } from '../../errors';
import type { Query } from '../../query';
import { appsJson } from '../../render/app-json';
import { groupEmbedFromQuery, type GroupEmbed } from '../../render/group-embed';
import { groupDefinitionText, groupInfoJson } from '../../render/group-info-json';
import { allGroups, findGroup, comparePathIds } from '../../../scheduler/index';
import type { AppSpec } from '../../../scheduler/model/app';
import { groupGetTarget } from './group-path';
import { canonicalVersion } from '../../version-text';

/**
 * The answer of `GET /v2/groups[/{…}]` for the path after `/v2/groups/` (facts 67–69): the group
 * (GroupInfo, 404 `Group '/x' does not exist` with `details: []` when unknown), its apps, its
 * stored versions (a bare array, newest first; 404 for an unknown group) or the group at one
 * stored version (404 when that version has no such group). Versions come from the core's root
 * history, which the store keeps across restarts.
 */
export function getGroups(deps: ApiDeps, rest: string, query: Query): unknown {
  const target = groupGetTarget(rest);
  const embed = groupEmbedFromQuery(query);
  switch (target.kind) {
    case 'group': {
      const group = findGroup(deps.scheduler.root(), target.groupId);
      if (group === undefined) throw notFound(notFoundText.group(target.groupId));
      return groupInfoJson(deps, group, embed);
    }
    case 'apps':
      return appsJson(deps, appsBelow(deps, target.groupId), embed.app);
    case 'versions':
      if (findGroup(deps.scheduler.root(), target.groupId) === undefined) throw notFound(notFoundText.group(target.groupId));
      return deps.scheduler.rootVersions().filter((v) => {
        const stored = deps.scheduler.rootVersion(v);
        return stored !== undefined && findGroup(stored, target.groupId) !== undefined;
      });
    case 'version': {
      const version = canonicalVersion(target.version);
      const stored = version === undefined ? undefined : deps.scheduler.rootVersion(version);
      const group = stored === undefined ? undefined : findGroup(stored, target.groupId);
      if (group === undefined) throw notFound(notFoundText.group(target.groupId));
      // Marathon's version view embeds nothing per app.
      return groupInfoJson(deps, group, { ...embed, app: new Set() }, 'definition');
    }
  }
}

/**
 * `GET /v2/groups[/{id}]` as JSON text when it can be answered from the kept texts: the group
 * view with the default embeds (none given, or exactly groups, apps and pods) of a group with no
 * pod below it ({@link groupDefinitionText}); undefined otherwise (the route then answers
 * {@link getGroups}' object, which an authorization filter may trim: the route asks only for a
 * caller who may view everything).
 */
export function getGroupText(deps: ApiDeps, rest: string, query: Query): string | undefined {
  const target = groupGetTarget(rest);
  if (target.kind !== 'group' || !definitionOnly(groupEmbedFromQuery(query))) return undefined;
  const group = findGroup(deps.scheduler.root(), target.groupId);
  return group === undefined ? undefined : groupDefinitionText(group);
}

function definitionOnly(embed: GroupEmbed): boolean {
  return embed.groups && embed.apps && embed.pods && embed.app.size === 0;
}

/** Every app below a group, in path id order; `[]` for an unknown group (as Marathon answers). */
function appsBelow(deps: ApiDeps, groupId: string): AppSpec[] {
  const group = findGroup(deps.scheduler.root(), groupId);
  if (group === undefined) return [];
  return allGroups(group).flatMap((g) => [...g.apps.values()]).sort((a, b) => comparePathIds(a.id, b.id));
}
