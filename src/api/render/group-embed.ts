import { type Query, queryAll } from '../query';

/** What a group view embeds (Marathon's `GroupInfo.Embed` plus the per-app embeds). */
export interface GroupEmbed {
  /** `group.groups`: subgroups, each rendered with the same embeds. */
  readonly groups: boolean;
  /** `group.apps`: the apps of each group. */
  readonly apps: boolean;
  /** `group.pods`: the pods of each group. */
  readonly pods: boolean;
  /**
   * Per-app embeds: every `group.apps.<x>` value with the `group.apps.` prefix removed (`tasks`,
   * `counts`, `deployments`, `readiness`, `lastTaskFailure`, `failures`, `taskStats`), passed to
   * the app renderer (`tasks` brings `deployments` along, fact 36); unknown ones are its to ignore.
   */
  readonly app: ReadonlySet<string>;
}

/** The default of a group view when no `embed` is given: groups, apps and pods, nothing per app (fact 68). */
export const DEFAULT_GROUP_EMBED: GroupEmbed = { groups: true, apps: true, pods: true, app: new Set() };

const GROUP_APPS_PREFIX = 'group.apps.';

/**
 * The embeds of `GET /v2/groups[/{id}]` (facts 67, 68). Without any `embed` the defaults apply;
 * passing any `embed` switches them off, so `embed=group.apps.counts` alone gives no apps, pods
 * or subgroups. Only the `group.`-prefixed names count here (a bare `apps.tasks` is unknown and
 * ignored, as in Marathon). Values may repeat and may be comma-separated.
 */
export function groupEmbedFromQuery(query: Query): GroupEmbed {
  const values = queryAll(query, 'embed').flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) return DEFAULT_GROUP_EMBED;
  const given = new Set(values);
  const app = new Set(values.filter((v) => v.startsWith(GROUP_APPS_PREFIX)).map((v) => v.slice(GROUP_APPS_PREFIX.length)));
  // Fact 36: embedding tasks also embeds the app's deployments.
  if (app.has('tasks')) app.add('deployments');
  return { groups: given.has('group.groups'), apps: given.has('group.apps'), pods: given.has('group.pods'), app };
}
