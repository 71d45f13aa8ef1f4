import type { ApiDeps } from '../api-deps';
import { readinessResultJson } from './readiness-result-json';
import type { AppSpec } from '../../scheduler/model/app';
import type { Instance } from '../../scheduler/model/instance';
import { appDefinitionJson } from '../../marathon/render/app-definition-json';
import { resolveAppEmbed, type AppEmbed } from './app-embed';
import { appTaskCounts, appTaskStats, type AppTaskCounts, type TaskStatsBasis, taskStatsAt, taskStatsBasis } from './app-task-stats';
import { hasHealthState, instancesTasksJson, instancesTasksText, instancesTaskTexts } from './task-json';
import { partsBytes, type ListPiece } from './list-body-cache';

/**
 * Marathon's app JSON (`AppInfo`, facts 18, 35–38): the app as Marathon's app writer writes it
 * ({@link appDefinitionJson}: every default, `version`, `versionInfo`, empty and unset fields left
 * out), then what `embed` asks for:
 *
 * - `counts` → `tasksStaged`, `tasksRunning`, `tasksHealthy`, `tasksUnhealthy`;
 * - `deployments` → `deployments: [{id}]`, the running deployments that touch the app;
 * - `readiness` → `readinessCheckResults`, one per instance with a readiness check while a
 *   running deployment changes the app (`{name, taskId, ready, lastResponse}`, the core's results;
 *   `[]` without a check or a deployment, as Marathon's `AppInfoBaseData`);
 * - `tasks` → `tasks` (fact 40, app-scoped: `servicePorts: []`);
 * - `lastTaskFailure` → `lastTaskFailure`, only when the core recorded a failure (Marathon's
 *   `TaskFailure`: `appId, host, message, state, taskId, timestamp, version, slaveId`);
 * - `taskStats` → `tasksStats` (Marathon's spelling).
 *
 * `embed` values may carry the `apps.`, `app.` or `group.apps.` prefix; `tasks` brings
 * `deployments` along and `failures` stands for tasks + lastTaskFailure + deployments
 * ({@link resolveAppEmbed}). The routes add the defaults of
 * each endpoint (the list always has counts and deployments, a single app also tasks and
 * lastTaskFailure); the groups view passes only what its `embed` asked for.
 *
 * `deployments` may be given when many apps are rendered at once ({@link deploymentIdsByApp},
 * computed once per request), so the running deployments are not inspected per app.
 */
export function appJson(
  deps: ApiDeps, spec: AppSpec, embed: ReadonlySet<string>, deployments?: ReadonlyMap<string, readonly string[]>,
): Record<string, unknown> {
  const json = appDefinitionJson(spec);
  for (const [key, value] of appEmbedParts(deps, spec, resolveAppEmbed(embed), deployments)) json[key] = value;
  return json;
}

/**
 * Several apps' JSON with the same `embed`: the running deployments are looked at once for the
 * whole list (and only when `deployments` is embedded), not once per app.
 */
export function appsJson(deps: ApiDeps, apps: readonly AppSpec[], embed: ReadonlySet<string>): Record<string, unknown>[] {
  const deployments = resolveAppEmbed(embed).has('deployments') ? deploymentIdsByApp(deps) : undefined;
  return apps.map((app) => appJson(deps, app, embed, deployments));
}

/**
 * `JSON.stringify` of {@link appsJson}'s array, byte for byte, without building the objects: each
 * app's definition is serialized once per spec object (specs are immutable: a change makes a new
 * one, so the text can never be stale; {@link appDefinitionText}), and only the embedded parts —
 * counts, deployments and whatever else `embed` asks for, read from the core at this call — are
 * serialized per request. This is what keeps `GET /v2/apps` with 10,000 apps within tens of
 * milliseconds (issue 13).
 */
export function appsText(deps: ApiDeps, apps: readonly AppSpec[], embed: ReadonlySet<string>): string {
  return `[${appsParts(deps, apps, embed).join(',')}]`;
}

/**
 * The texts {@link appsText} joins, one per app, in order: with the list's own embeds (counts,
 * deployments), each the same string object as last time while nothing it shows changed, which
 * is what lets `GET /v2/apps` answer a kept encoding (list-body-cache.ts).
 */
export function appsParts(deps: ApiDeps, apps: readonly AppSpec[], embed: ReadonlySet<string>): string[] {
  return appsPieces(deps, apps, embed).map((p) => (p.parts.length === 1 ? p.parts[0] : p.parts.join(',')));
}

/**
 * {@link appsParts} as list pieces named by app id, one part each (with `tasks` embedded, the app's
 * text in parts joined by `,`: the tasks' kept texts, the app's text around them in the first and
 * the last, see {@link keptAppPiece}): with the list's own embeds the
 * very same piece object as last time while the app's text is the same (kept with it), so a list
 * of 10,000 apps in which nothing changed allocates no piece per app and the kept answer is
 * recognized by identity (list-body-cache.ts).
 */
export function appsPieces(deps: ApiDeps, apps: readonly AppSpec[], embed: ReadonlySet<string>): ListPiece[] {
  const want = resolveAppEmbed(embed);
  const deployments = want.has('deployments') ? deploymentIdsByApp(deps) : undefined;
  const listDefaultsOnly = [...want].every((part) => part === 'counts' || part === 'deployments');
  const encoded = want.has('tasks') ? polledEncodings(embedKey(want)) : undefined;
  const out = new Array<ListPiece>(apps.length);
  for (let i = 0; i < apps.length; i++) {
    const spec = apps[i];
    out[i] = listDefaultsOnly ? countedAppPiece(deps, spec, want, deployments) : keptAppPiece(deps, spec, want, deployments, encoded);
  }
  return out;
}

/**
 * The list's embeds with tasks most recently read (what load balancers poll: marathon-lb's
 * `embed=apps.tasks`; Traefik adds `apps.deployments` and `apps.readiness`), by
 * {@link embedKey}, the oldest first: at most {@link POLLED_EMBEDS}. Each has the encodings of
 * its kept pieces, by their parts array (gone with the piece): a piece is answered as those bytes
 * ({@link ListPiece} `bytes`), and v2/lists-ahead.ts keeps the pieces of these embeds, encoded, ahead
 * of the reads. An embed read when there are already as many drops the oldest and its encodings:
 * at most {@link POLLED_EMBEDS} encoded copies of the apps' tasks.
 */
const polled = new Map<number, WeakMap<readonly string[], Buffer>>();

/** Embeds with tasks whose pieces are kept encoded, see {@link polled}. */
export const POLLED_EMBEDS = 2;

/** The encodings of embed `key` (made the most recently read), see {@link polled}. */
function polledEncodings(key: number): WeakMap<readonly string[], Buffer> {
  let encodings = polled.get(key);
  if (encodings === undefined) encodings = new WeakMap();
  else polled.delete(key);
  polled.set(key, encodings);
  for (const oldest of polled.keys()) {
    if (polled.size <= POLLED_EMBEDS) break;
    polled.delete(oldest);
  }
  return encodings;
}

/**
 * Keeps `spec`'s list piece of every polled embed ({@link polled}) for the core as it is now,
 * encoded, as a read of that embed would: for the pass that does so ahead of the reads
 * (v2/lists-ahead.ts). `deployments`: {@link deploymentIdsByApp}, computed by the caller.
 */
export function keepAppPiecesAhead(deps: ApiDeps, spec: AppSpec, deployments: ReadonlyMap<string, readonly string[]>): void {
  for (const [key, encodings] of polled) keptAppPiece(deps, spec, embedOfKey(key), deployments, encodings);
}

/** Whether some embed with tasks has been read (the pass has something to keep). */
export function anyPolledEmbed(): boolean {
  return polled.size > 0;
}

/**
 * Whether `spec`'s piece for the list's `embed` is kept for the core as it is now and encoded
 * (for tests: what a read of that embed would answer as it is).
 */
export function appPieceKeptEncoded(deps: ApiDeps, spec: AppSpec, embed: ReadonlySet<string>): boolean {
  const want = resolveAppEmbed(new Set([...embed, 'counts', 'deployments']));
  const { key, kept } = currentPiece(deps, spec, want, deploymentIdsByApp(deps));
  return kept !== undefined && polled.get(key)?.has(kept.parts) === true;
}

/**
 * `JSON.stringify(appJson(deps, spec, embed))` byte for byte (`GET /v2/apps/{id}`): the kept
 * definition text, the embedded tasks from their kept texts, the other parts serialized now.
 */
export function singleAppText(deps: ApiDeps, spec: AppSpec, embed: ReadonlySet<string>): string {
  return appText(deps, spec, resolveAppEmbed(embed), undefined);
}

/** One app's JSON text: its kept definition text, then its embedded parts serialized now (the tasks from their kept texts). */
function appText(
  deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined, counts?: AppTaskCounts,
): string {
  return `${appDefinitionHead(spec)}${partsText(deps, spec, want, deployments, counts)}}`;
}

/** The embedded parts as the text after the definition: `,"key":value` each, in their order. */
function partsText(
  deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined, counts?: AppTaskCounts,
): string {
  let text = '';
  for (const [key, value] of appEmbedParts(deps, spec, want, deployments, 'text', counts)) text += `,${JSON.stringify(key)}:${partText(value)}`;
  return text;
}

/**
 * {@link appText} for the list's own embeds (counts and deployments, any subset) as the app's list
 * piece, kept per spec object with the counts and deployment ids it was rendered from and rendered
 * again when any of them (or the embed) differs: the counts are the core's, kept per token of the
 * app's instances ({@link keptAppTaskCounts}). While that token is the one the piece was last
 * checked with, the piece is answered without looking at the counts (one look-up per app of
 * 10,000 in every `GET /v2/apps`, issue 13).
 */
function countedAppPiece(deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined): ListPiece {
  const ids = want.has('deployments') ? (deployments ?? deploymentIdsByApp(deps)).get(spec.id) : undefined;
  const idsKey = ids === undefined ? '' : JSON.stringify(ids);
  const embedKey = (want.has('counts') ? 1 : 0) + (want.has('deployments') ? 2 : 0);
  const token = want.has('counts') ? deps.scheduler.instancesToken(spec.id) : NO_COUNTS;
  const kept = countedTexts.get(spec);
  const sameRest = kept !== undefined && kept.embedKey === embedKey && kept.idsKey === idsKey;
  if (sameRest && token !== undefined && kept.token === token) return kept.piece;
  const counts = want.has('counts') ? keptAppTaskCounts(deps, spec) : NO_COUNTS;
  if (sameRest && kept.staged === counts.tasksStaged && kept.running === counts.tasksRunning
    && kept.healthy === counts.tasksHealthy && kept.unhealthy === counts.tasksUnhealthy) {
    kept.token = token;
    return kept.piece;
  }
  const piece: ListPiece = { key: spec.id, parts: [appText(deps, spec, want, deployments, counts)] };
  countedTexts.set(spec, {
    embedKey, idsKey, token, staged: counts.tasksStaged, running: counts.tasksRunning, healthy: counts.tasksHealthy, unhealthy: counts.tasksUnhealthy, piece,
  });
  return piece;
}

/**
 * {@link appTaskCounts} of the app's instances, kept per spec object with the core's token of
 * its instances (`instancesToken`: a new one after any input that created, removed or changed one
 * of them — condition, goal, health — which is everything the counts read): `GET /v2/apps` does not
 * read 100,000 instances per request to learn that none changed (issue 13).
 */
function keptAppTaskCounts(deps: ApiDeps, spec: AppSpec): AppTaskCounts {
  return keptForInstances(keptCounts, deps, spec, countTasks);
}

/**
 * The basis of the app's `tasksStats` ({@link taskStatsBasis}: counts and start times per group),
 * kept per spec object (whose version info the groups depend on) with the core's token of its
 * instances, as the counts are: `embed=apps.taskStats` reads no instance of an unchanged app.
 */
function keptTaskStatsBasis(deps: ApiDeps, spec: AppSpec): TaskStatsBasis {
  return keptForInstances(keptStatsBases, deps, spec, statsBasis);
}

// Module-level, not closures: the counts are looked up for every app of every `GET /v2/apps`.
const countTasks = (deps: ApiDeps, spec: AppSpec): AppTaskCounts => appTaskCounts(deps.scheduler.instances(spec.id));
const statsBasis = (deps: ApiDeps, spec: AppSpec): TaskStatsBasis => taskStatsBasis(deps.scheduler.instances(spec.id), spec.versionInfo);

/** A value computed from an app's instances, kept per spec object with the token of the instances it was computed from. */
type KeptForInstances<T> = WeakMap<AppSpec, { readonly token: object; readonly value: T }>;

/**
 * `compute(deps, spec)`, or what it gave last time for this spec object while the core's token of the
 * app's instances (`instancesToken`) is the same object: nothing they show changed since. Not
 * kept while the app has no token (none of its instances changed since this core started).
 */
function keptForInstances<T>(kept: KeptForInstances<T>, deps: ApiDeps, spec: AppSpec, compute: (deps: ApiDeps, spec: AppSpec) => T): T {
  const token = deps.scheduler.instancesToken(spec.id);
  const last = kept.get(spec);
  if (last !== undefined && token !== undefined && last.token === token) return last.value;
  const value = compute(deps, spec);
  if (token !== undefined) kept.set(spec, { token, value });
  return value;
}

const keptStatsBases: KeptForInstances<TaskStatsBasis> = new WeakMap();

/** Per spec object (gone with it): its counts and the token of the instances they were taken from. */
const keptCounts: KeptForInstances<AppTaskCounts> = new WeakMap();

const NO_COUNTS: AppTaskCounts = { tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0 };

/** A list entry's text and what it was rendered from (besides the spec, its key). */
interface KeptAppText {
  readonly embedKey: number;
  readonly idsKey: string;
  /**
   * The core's token of the app's instances when the counts were last found equal to these
   * (undefined: none yet, never taken as unchanged); {@link NO_COUNTS} when the embed has no counts.
   */
  token: object | undefined;
  readonly staged: number;
  readonly running: number;
  readonly healthy: number;
  readonly unhealthy: number;
  /** `{key: spec.id, parts: [text]}`, the list piece answered while nothing above changed. */
  readonly piece: ListPiece;
}

/** Kept per spec object: gone with the spec. */
const countedTexts = new WeakMap<AppSpec, KeptAppText>();

/** The embed parts written before an app's `tasks` ({@link appEmbedParts}' order), and after. */
const BEFORE_TASKS: readonly AppEmbed[] = ['counts', 'deployments', 'readiness'];
const AFTER_TASKS: readonly AppEmbed[] = ['lastTaskFailure', 'taskStats'];

/**
 * What {@link keptAppPiece} makes `spec`'s piece from now — its small parts written before and
 * after the tasks, the core's token of its instances (with tasks embedded), its key — and the
 * kept piece when it was made from exactly these (undefined otherwise).
 */
function currentPiece(
  deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined,
): { readonly before: string; readonly after: string; readonly token: object | undefined; readonly key: number; readonly kept: ListPiece | undefined } {
  const withTasks = want.has('tasks');
  const before = partsText(deps, spec, withTasks ? subset(want, BEFORE_TASKS) : want, deployments);
  const after = withTasks ? partsText(deps, spec, subset(want, AFTER_TASKS), deployments) : '';
  const token = withTasks ? deps.scheduler.instancesToken(spec.id) : NO_TASKS;
  const key = embedKey(want);
  const k = keptPieces.get(spec)?.get(key);
  const current = k !== undefined && token !== undefined && k.token === token && k.before === before && k.after === after;
  return { before, after, token, key, kept: current ? k.piece : undefined };
}

/**
 * An app's list piece for embeds beyond the list's own counts and deployments — above all
 * `embed=apps.tasks`, what load balancers poll (marathon-lb; Traefik adds `apps.deployments` and
 * `apps.readiness`), and the web UI's `apps.lastTaskFailure` — kept per spec object and embed
 * with the small parts written around the tasks and, when tasks are embedded, the core's token of
 * the app's instances: while they are the same, the very same piece is answered without reading
 * the instances, so the list's kept encoding is answered again (list-body-cache.ts) instead of
 * 40 MB of 100,000 tasks joined and encoded at every poll. An app with health checks has its
 * tasks made at every read (their results change with every probe, without a new token), as
 * `GET /v2/tasks` does (list-tasks.ts).
 */
function keptAppPiece(
  deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined,
  encodings?: WeakMap<readonly string[], Buffer>,
): ListPiece {
  const withTasks = want.has('tasks');
  const { before, after, token, key, kept } = currentPiece(deps, spec, want, deployments);
  if (kept !== undefined) return encoded(kept, encodings);
  let bySpec = keptPieces.get(spec);
  let parts: string[];
  let withHealth = false;
  if (withTasks) {
    const instances = deps.scheduler.instances(spec.id);
    // The tasks' kept texts are parts of their own, which the list joins with `,` as it joins any
    // two parts: the app's text around them goes into the first and the last. One string of the
    // whole app (100 tasks: 40 kB) was a join, then a second copy when the list encoded it (a
    // string of concatenations is flattened first), and a third copy of the task texts kept in
    // the piece: 40 MB of each for 100,000 tasks, most of the first read's 1.5–2 s (issue 13).
    parts = instancesTaskTexts(deps, instances);
    const head = `${appDefinitionHead(spec)}${before},"tasks":[`;
    const tail = `]${after}}`;
    if (parts.length === 0) parts.push(head + tail);
    else {
      parts[0] = head + parts[0];
      parts[parts.length - 1] += tail;
    }
    withHealth = spec.healthChecks.length > 0 || instances.some((instance) => hasHealthState(deps, instance));
  } else {
    parts = [`${appDefinitionHead(spec)}${before}}`];
  }
  const piece: ListPiece = { key: spec.id, parts };
  if (token === undefined || withHealth) {
    bySpec?.delete(key);
    return piece;
  }
  if (bySpec === undefined) {
    bySpec = new Map();
    keptPieces.set(spec, bySpec);
  }
  bySpec.set(key, { token, before, after, piece });
  return encoded(piece, encodings);
}

/** `piece` with its bytes, kept in `encodings` by its parts array (made now if they are not); `piece` itself without `encodings`. */
function encoded(piece: ListPiece, encodings: WeakMap<readonly string[], Buffer> | undefined): ListPiece {
  if (encodings === undefined) return piece;
  let bytes = encodings.get(piece.parts);
  if (bytes === undefined) {
    bytes = partsBytes(piece.parts);
    encodings.set(piece.parts, bytes);
  }
  return { key: piece.key, parts: piece.parts, bytes };
}

/** The embeds of {@link embedKey} `key`. */
function embedOfKey(key: number): Set<AppEmbed> {
  return new Set(EMBED_BITS.filter((_, i) => (key & (1 << i)) !== 0));
}

/** The token of a piece without tasks: its small parts alone decide. */
const NO_TASKS: object = {};

/** Per spec object (gone with it) and embed ({@link embedKey}): the piece and what it was made from. */
const keptPieces = new WeakMap<AppSpec, Map<number, { readonly token: object; readonly before: string; readonly after: string; readonly piece: ListPiece }>>();

function subset(want: ReadonlySet<AppEmbed>, parts: readonly AppEmbed[]): Set<AppEmbed> {
  return new Set(parts.filter((p) => want.has(p)));
}

const EMBED_BITS: readonly AppEmbed[] = ['counts', 'deployments', 'tasks', 'lastTaskFailure', 'readiness', 'taskStats'];

/** The embed parts as a small number (at most 64 kinds of piece per app). */
function embedKey(want: ReadonlySet<AppEmbed>): number {
  let key = 0;
  for (let i = 0; i < EMBED_BITS.length; i++) if (want.has(EMBED_BITS[i])) key |= 1 << i;
  return key;
}

/** For every run spec a running deployment changes, the ids of those deployments (an app's `deployments`). */
export function deploymentIdsByApp(deps: ApiDeps): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const plan of deps.scheduler.runningPlans()) {
    for (const id of plan.affectedRunSpecIds) {
      const list = out.get(id);
      if (list === undefined) out.set(id, [plan.id]);
      else list.push(plan.id);
    }
  }
  return out;
}

/** `JSON.stringify(appDefinitionJson(spec))`, once per spec object (specs are never mutated). */
export function appDefinitionText(spec: AppSpec): string {
  return `${appDefinitionHead(spec)}}`;
}

/** Whether the spec's definition text is kept (tests of the rendering ahead, app-definition-ahead.ts). */
export function hasAppDefinitionText(spec: AppSpec): boolean {
  return definitionHeads.has(spec);
}

/** The definition's JSON without its closing brace, memoized per spec object. */
const definitionHeads = new WeakMap<AppSpec, string>();

function appDefinitionHead(spec: AppSpec): string {
  let head = definitionHeads.get(spec);
  if (head === undefined) {
    head = JSON.stringify(appDefinitionJson(spec)).slice(0, -1);
    definitionHeads.set(spec, head);
  }
  return head;
}

/**
 * The app's readiness results as Marathon's `AppInfoBaseData` lists them: only those of its
 * running deployments (`readinessChecksByApp` of each `DeploymentStepInfo`), so `[]` once no
 * deployment changes the app, although the core keeps an instance's last result until it ends
 * (Traefik v1's Marathon provider reads these results while `deployments` is not empty).
 */
function appReadinessJson(deps: ApiDeps, spec: AppSpec, deploymentIds: readonly string[]): unknown[] {
  if (deploymentIds.length === 0) return [];
  return deps.scheduler.readiness(spec.id).map(readinessResultJson);
}

/** A part already written as JSON text (the embedded tasks, from their kept texts). */
class JsonText {
  constructor(readonly text: string) {}
}

/** A value as JSON.stringify writes it inside an object (the counts are small integers). */
function partText(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * The embedded parts of one app's JSON, in the order Marathon writes them after the definition
 * (none of these keys is a definition field, so they always come last): the one owner of what
 * each `embed` part adds, for {@link appJson} and {@link appsText} alike.
 */
function appEmbedParts(
  deps: ApiDeps, spec: AppSpec, want: ReadonlySet<AppEmbed>, deployments: ReadonlyMap<string, readonly string[]> | undefined,
  tasksAs: 'json' | 'text' = 'json', counts?: AppTaskCounts,
): [string, unknown][] {
  const parts: [string, unknown][] = [];
  let read: readonly Instance[] | undefined;
  const instances = (): readonly Instance[] => (read ??= deps.scheduler.instances(spec.id));
  if (want.has('counts')) {
    // The object renderings (the reference the text renderings are tested against) count afresh.
    const c = counts ?? (tasksAs === 'text' ? keptAppTaskCounts(deps, spec) : appTaskCounts(instances()));
    parts.push(['tasksStaged', c.tasksStaged], ['tasksRunning', c.tasksRunning], ['tasksHealthy', c.tasksHealthy], ['tasksUnhealthy', c.tasksUnhealthy]);
  }
  const ids = want.has('deployments') || want.has('readiness') ? (deployments ?? deploymentIdsByApp(deps)).get(spec.id) ?? [] : [];
  if (want.has('deployments')) parts.push(['deployments', ids.map((id) => ({ id }))]);
  if (want.has('readiness')) parts.push(['readinessCheckResults', appReadinessJson(deps, spec, ids)]);
  if (want.has('tasks')) parts.push(['tasks', tasksAs === 'text' ? new JsonText(instancesTasksText(deps, instances())) : instancesTasksJson(deps, instances())]);
  if (want.has('lastTaskFailure')) {
    const failure = deps.scheduler.lastTaskFailure(spec.id);
    if (failure !== undefined) parts.push(['lastTaskFailure', { ...failure }]);
  }
  if (want.has('taskStats')) {
    const nowMs = deps.clock.nowMs();
    parts.push(['tasksStats', tasksAs === 'text' ? taskStatsAt(keptTaskStatsBasis(deps, spec), nowMs) : appTaskStats(instances(), spec.versionInfo, nowMs)]);
  }
  return parts;
}
