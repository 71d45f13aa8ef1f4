import { emptyBody, invalidJson, objectNotValid } from '../errors';
import { ErrorSink } from '../../marathon/convert/error-sink';
import { isRecord } from '../../marathon/convert/wire-object';
import { MAX_ID_LENGTH, PATH_ID_PATTERN } from '../../scheduler/index';
import { MAX_INSTANCES } from '../../scheduler/model/run-spec-limits';
import { MAX_APPS_PER_REQUEST, MAX_ITEMS, tooManyAppsMessage } from '../../marathon/schemas/limits';
import { canonicalVersion } from '../version-text';

/** The RAML's `strings.PathId`: the core's one id pattern (the same as apps' and pods' ids). */
const PATH_ID = new RegExp(PATH_ID_PATTERN);

/**
 * A `GroupUpdate` body (the body of `POST`/`PUT /v2/groups[/{id}]`, Marathon's RAML type of that
 * name) whose shape has been checked. Fields left out stay undefined (`null` counts as left out).
 * `apps` are kept as given: each one is an app definition converted later, in its group's context.
 * A `pods` field is not part of the type and is ignored, as Marathon's reader ignores it: pods are
 * read-only through `/v2/groups` (spec section 1, rule 5; fact 70 "pods are never touched").
 */
export interface GroupUpdateBody {
  readonly id?: string;
  readonly apps?: readonly unknown[];
  readonly groups?: readonly GroupUpdateBody[];
  readonly dependencies?: readonly string[];
  /** Factor for every app below the group (`instances = ceil(instances × scaleBy)`, fact 71). */
  readonly scaleBy?: number;
  /** A stored root version to revert the group to (fact 71), as given. */
  readonly version?: string;
  readonly enforceRole?: boolean;
}

/** The fields of {@link GroupUpdateBody}: what counts as "another property" next to `version`/`scaleBy`. */
export const GROUP_UPDATE_FIELDS = ['id', 'apps', 'groups', 'dependencies', 'scaleBy', 'version', 'enforceRole'] as const;

/**
 * Reads a `GroupUpdate` body, or throws the catalogue's error: an absent body → 400 (fact 6);
 * a wrong shape → 422 "Invalid JSON" with play-json keys at Marathon's paths, list positions
 * written `(n)` after the field (facts 3, 4): `/groups(0)/id` → `error.path.missing`,
 * `/scaleBy` → `error.min`, an id outside the RAML's PathId pattern → `error.pattern` (as for
 * apps and pods), … Every problem is reported at once. pacer's limits (docs/limits.md): ids of at
 * most `MAX_ID_LENGTH` characters, lists of at most `MAX_ITEMS`, `scaleBy` at most
 * `MAX_INSTANCES` (`error.maxLength`, `error.max`), and at most `MAX_APPS_PER_REQUEST` apps in
 * the whole body (422 "Object is not valid" at `/`).
 */
export function readGroupUpdate(body: unknown): GroupUpdateBody {
  if (body === undefined || body === null) throw emptyBody();
  const sink = new ErrorSink();
  const update = readGroup(body, '', sink, false);
  if (sink.failed || update === undefined) throw invalidJson(sink.details());
  const apps = countApps(update);
  if (apps > MAX_APPS_PER_REQUEST) throw objectNotValid([{ path: '/', errors: [tooManyAppsMessage(apps)] }]);
  return update;
}

function countApps(group: GroupUpdateBody): number {
  return (group.apps?.length ?? 0) + (group.groups ?? []).reduce((n, g) => n + countApps(g), 0);
}

/** `/apps(2)`: the path of a list element, Marathon-style (fact 3). */
export function elementPath(base: string, field: string, index: number): string {
  return `${base}/${field}(${index})`;
}

function readGroup(json: unknown, path: string, sink: ErrorSink, nested: boolean): GroupUpdateBody | undefined {
  if (!isRecord(json)) {
    sink.add(path, 'error.expected.jsobject');
    return undefined;
  }
  const out: { -readonly [K in keyof GroupUpdateBody]: GroupUpdateBody[K] } = {};
  const field = (key: string): unknown => (json[key] === null ? undefined : json[key]);
  out.id = readPathId(field('id'), `${path}/id`, sink);
  // A nested group names itself; Marathon cannot place one without an id.
  if (nested && field('id') === undefined) sink.add(`${path}/id`, 'error.path.missing');
  out.apps = readArray(field('apps'), `${path}/apps`, sink);
  out.groups = readArray(field('groups'), `${path}/groups`, sink)
    ?.map((g, i) => readGroup(g, elementPath(path, 'groups', i), sink, true))
    .filter((g): g is GroupUpdateBody => g !== undefined);
  out.dependencies = readDependencies(field('dependencies'), path, sink);
  out.scaleBy = readScaleBy(field('scaleBy'), `${path}/scaleBy`, sink);
  out.version = readVersion(field('version'), `${path}/version`, sink);
  out.enforceRole = readBoolean(field('enforceRole'), `${path}/enforceRole`, sink);
  for (const key of Object.keys(out) as (keyof GroupUpdateBody)[]) if (out[key] === undefined) delete out[key];
  return out;
}

function readString(value: unknown, path: string, sink: ErrorSink): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  sink.add(path, 'error.expected.jsstring');
  return undefined;
}

function readBoolean(value: unknown, path: string, sink: ErrorSink): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  sink.add(path, 'error.expected.jsboolean');
  return undefined;
}

/** A `strings.PathId`: a string of the RAML's pattern, at most `MAX_ID_LENGTH` characters. */
function readPathId(value: unknown, path: string, sink: ErrorSink): string | undefined {
  const text = readString(value, path, sink);
  if (text === undefined) return undefined;
  const problem = text === '' ? 'error.minLength'
    : text.length > MAX_ID_LENGTH ? 'error.maxLength'
      : PATH_ID.test(text) ? undefined : 'error.pattern';
  if (problem === undefined) return text;
  sink.add(path, problem);
  return undefined;
}

/** A list of at most `MAX_ITEMS` entries. */
function readArray(value: unknown, path: string, sink: ErrorSink): readonly unknown[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) sink.add(path, 'error.expected.jsarray');
  else if (value.length > MAX_ITEMS) sink.add(path, 'error.maxLength');
  else return value;
  return undefined;
}

function readDependencies(value: unknown, path: string, sink: ErrorSink): readonly string[] | undefined {
  const list = readArray(value, `${path}/dependencies`, sink);
  if (list === undefined) return undefined;
  const ids = list.map((d, i) => readPathId(d, elementPath(path, 'dependencies', i), sink));
  return ids.filter((d): d is string => d !== undefined);
}

/**
 * `scaleBy`: a number ≥ 0 (the RAML's `minimum: 0`), at most `MAX_INSTANCES` (a larger factor
 * takes any app beyond the instance limit; the scaled counts are checked too).
 */
function readScaleBy(value: unknown, path: string, sink: ErrorSink): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) sink.add(path, 'error.expected.jsnumber');
  else if (value < 0) sink.add(path, 'error.min');
  else if (value > MAX_INSTANCES) sink.add(path, 'error.max');
  else return value;
  return undefined;
}

/** `version`: an ISO 8601 date-time (the RAML's `datetime`). */
function readVersion(value: unknown, path: string, sink: ErrorSink): string | undefined {
  const text = readString(value, path, sink);
  if (text === undefined) return undefined;
  if (canonicalVersion(text) === undefined) {
    sink.add(path, 'error.expected.date.isoformat');
    return undefined;
  }
  return text;
}
