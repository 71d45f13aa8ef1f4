/**
 * Path ids of the group tree (Marathon's `state/PathId.scala`): `/prod/web/frontend`. Groups, apps
 * and pods share one namespace of such ids; the root group is `/`.
 *
 * - A segment is lowercase letters, digits, `-` and `.`: dot-separated labels, each starting and
 *   ending with a letter or digit (`web`, `a-b`, `v1.2`), or exactly `.` / `..` (resolved by
 *   {@link resolvePathId}).
 * - The last segment must not be `restart`, `tasks`, `versions`, `.` or `..` (Marathon checks only
 *   the last; a change that would create a missing parent group ending in one is refused by the
 *   core, `reserved-new-group.ts`).
 * - An absolute id must not hold `.` or `..` segments: Marathon's `PathId.childOf(path.parent)`
 *   rejects `/a/../b` (`Identifier is not child of '/a/..'`) instead of silently meaning `/b`.
 *   Relative ids may use them: `../db` climbs from the base group (group bodies, dependencies).
 * - Limits of pacer's own (docs/limits.md): at most {@link MAX_ID_LENGTH} characters and
 *   {@link MAX_ID_SEGMENTS} segments (the group depth).
 * - Leading, trailing and repeated slashes are ignored, as Marathon's parser ignores them.
 * - An id without a leading `/` is relative and resolves against a base group.
 *
 * Every function here is pure and works on strings; ids the group tree stores are canonical
 * (absolute, no empty, `.` or `..` segments), as {@link resolvePathId} returns them.
 */

/** The id of the root group. */
export const ROOT_ID = '/';

/** Marathon's segment pattern (`PathId.ID_PATH_SEGMENT_PATTERN`), quoted in its message. */
const SEGMENT_SOURCE = '^(([a-z0-9]|[a-z0-9][a-z0-9\\-]*[a-z0-9])\\.)*([a-z0-9]|[a-z0-9][a-z0-9\\-]*[a-z0-9])|(\\.|\\.\\.)$';

/**
 * One label of a segment: lowercase letters, digits and `-`, starting and ending with a letter or
 * digit. The one definition of it: the segment rule below and {@link PATH_ID_PATTERN} (the shape
 * schemas' `PathId`) are built from it.
 */
export const PATH_LABEL_SOURCE = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';

/**
 * The segment rule, matched as Java's `Matcher.matches()` matches {@link SEGMENT_SOURCE} (the
 * whole segment): dot-separated labels, or exactly `.` or `..`.
 */
const SEGMENT = new RegExp(`^(?:${PATH_LABEL_SOURCE}(?:\\.${PATH_LABEL_SOURCE})*|\\.|\\.\\.)$`);

/**
 * The whole id as the body-shape checks match it (the RAML's `strings.PathId`: absolute or
 * relative, repeated slashes allowed, segments of dot-separated labels or `..`; no `.` segment),
 * built from the same {@link PATH_LABEL_SOURCE}. Written without the RAML's nested optional
 * groups so that a long invalid id cannot make the match backtrack exponentially. The one
 * pattern of the app, pod and group shape schemas (src/marathon/schemas, src/api/schemas), which
 * answer it with play-json's `error.pattern`; {@link validatePathId} answers the same segments
 * with Marathon's {@link PATH_PATTERN_MESSAGE} (and the reserved, dot and limit rules).
 */
export const PATH_ID_PATTERN = `^/*(?:(?:\\.\\.|${PATH_LABEL_SOURCE}(?:\\.${PATH_LABEL_SOURCE})*)(?:/+|$))*$`;

const RESERVED_LAST: readonly string[] = ['restart', 'tasks', 'versions', '.', '..'];

/** Marathon's message for a segment outside the pattern. */
export const PATH_PATTERN_MESSAGE = `must fully match regular expression '${SEGMENT_SOURCE}'`;
/** Marathon's message for a reserved last segment. */
export const RESERVED_ID_MESSAGE = `must not end with any of the following reserved keywords: ${RESERVED_LAST.join(', ')}`;
/**
 * Whether `segment` is one of Marathon's reserved keywords (`restart`, `tasks`, `versions`, `.`,
 * `..`): the one list behind {@link RESERVED_ID_MESSAGE} and {@link reservedGroupMessage}.
 */
export function isReservedSegment(segment: string): boolean {
  return RESERVED_LAST.includes(segment);
}

/** The reserved keywords a canonical id can hold (`.` and `..` are resolved away). */
const RESERVED_WORDS = RESERVED_LAST.filter((k) => k !== '.' && k !== '..');

/**
 * pacer's message for an id whose missing parent group would end in a reserved keyword
 * (`groups/reserved-new-group.ts`): Marathon checks only an id's last segment, so `/q/tasks/a`
 * made a group `/q/tasks` that its own API refuses to update and, for `versions`, cannot show.
 */
export function reservedGroupMessage(groupId: string): string {
  return `must not create a group whose id ends in a reserved keyword (${RESERVED_WORDS.join(', ')}): '${groupId}'`;
}

/** Marathon's message for an id with no segment (`/` where a run spec or group id is needed). */
export const EMPTY_PATH_MESSAGE = 'Path must contain at least one path element';

/**
 * Longest id, in characters (docs/limits.md). Every task id pacer builds embeds the run spec id
 * (`<id>.instance-<uuid>._app.<n>`, pods `<id>.instance-<uuid>.<container ≤ 63>.<n>`): with 128
 * the longest stays under Mesos's 255-character task id limit and the local cluster's sandbox
 * directory name under NAME_MAX (255 bytes). Marathon has no limit (ids of 100,000 characters
 * gave 100 KB `Location` headers, issue 11).
 */
export const MAX_ID_LENGTH = 128;

/** Most segments of an id, i.e. the deepest group nesting (docs/limits.md); Marathon has no limit. */
export const MAX_ID_SEGMENTS = 32;

/** Marathon's message (`PathId.childOf`) for an id that is not a direct child of `parentId`. */
export function notChildMessage(parentId: string): string {
  return `Identifier is not child of '${parentId}'`;
}

/** pacer's message for an id longer than {@link MAX_ID_LENGTH}. */
export const ID_TOO_LONG_MESSAGE = `must not be longer than ${MAX_ID_LENGTH} characters`;

/** pacer's message for an id with more than {@link MAX_ID_SEGMENTS} segments. */
export const ID_TOO_DEEP_MESSAGE = `must not have more than ${MAX_ID_SEGMENTS} path segments`;

/**
 * Why `id` is not a valid path id (absolute or relative): Marathon's messages, at most one per
 * rule, in Marathon's order, then the limits. Empty when valid. The root id `/` is valid only
 * with `allowRoot`.
 */
export function validatePathId(id: string, options: { readonly allowRoot?: boolean } = {}): string[] {
  if (id.length > MAX_ID_LENGTH) return [ID_TOO_LONG_MESSAGE];
  const parts = segments(id);
  const errors: string[] = [];
  if (parts.length === 0) {
    if (options.allowRoot !== true) errors.push(EMPTY_PATH_MESSAGE);
    return errors;
  }
  if (!parts.every((p) => SEGMENT.test(p))) errors.push(PATH_PATTERN_MESSAGE);
  if (RESERVED_LAST.includes(parts[parts.length - 1])) errors.push(RESERVED_ID_MESSAGE);
  else errors.push(...dotSegmentProblems(id));
  if (parts.length > MAX_ID_SEGMENTS) errors.push(ID_TOO_DEEP_MESSAGE);
  return errors;
}

/**
 * Marathon's rules for the `.` and `..` segments of an id, for callers that check it before
 * {@link resolvePathId} canonicalizes it (which would hide them): an id whose last segment is `.`
 * or `..` ends in a reserved keyword ({@link RESERVED_ID_MESSAGE}: `/a/b/..` is refused, not
 * taken for `/a`), and an absolute id with a `.` or `..` segment elsewhere is not a child of its
 * parent as written (`/a/../b` → `Identifier is not child of '/a/..'`). Empty otherwise, and for
 * relative ids that do not end in a dot segment (`../db` names a sibling).
 */
export function dotSegmentProblems(id: string): string[] {
  const parts = segments(id);
  const last = parts[parts.length - 1];
  if (last === '.' || last === '..') return [RESERVED_ID_MESSAGE];
  if (!isAbsolute(id) || RESERVED_LAST.includes(last ?? '')) return [];
  return parts.some((p) => p === '.' || p === '..') ? [notChildMessage(joinSegments(parts.slice(0, -1)))] : [];
}

/** The non-empty segments of `id`: `/prod//web/` → `['prod', 'web']`; `/` → `[]`. */
export function segments(id: string): string[] {
  return id.split('/').filter((s) => s !== '');
}

/** True for ids starting with `/`. */
export function isAbsolute(id: string): boolean {
  return id.startsWith('/');
}

/**
 * The canonical absolute id of `id`: a relative id is appended to `baseId` (an absolute group id),
 * then `.` segments are dropped and `..` removes the segment before it (never above the root), as
 * Marathon's `canonicalPath` does. `resolvePathId('../db', '/prod/web')` → `/prod/db`;
 * `resolvePathId('./x', '/a')` → `/a/x`; absolute ids are only canonicalized.
 */
export function resolvePathId(id: string, baseId: string = ROOT_ID): string {
  const parts = isAbsolute(id) ? segments(id) : [...segments(baseId), ...segments(id)];
  const out: string[] = [];
  for (const p of parts) {
    if (p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return joinSegments(out);
}

/** `['prod', 'web']` → `/prod/web`; `[]` → `/`. */
export function joinSegments(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}

/** True when `id` is already canonical: absolute, no empty, `.` or `..` segments, no trailing `/`. */
export function isCanonical(id: string): boolean {
  return id === ROOT_ID || (isAbsolute(id) && id.slice(1).split('/').every((s) => s !== '' && s !== '.' && s !== '..'));
}

/** The parent group id: `/prod/web` → `/prod`, `/prod` → `/`. The root is its own parent (as in Marathon). */
export function parentOf(id: string): string {
  if (isPlainAbsolute(id)) {
    // Hot (every lookup of a run spec by id): the same answer without splitting the id.
    const last = id.lastIndexOf('/');
    return last <= 0 ? ROOT_ID : id.slice(0, last);
  }
  const parts = segments(id);
  return joinSegments(parts.slice(0, Math.max(0, parts.length - 1)));
}

/** Every ancestor of `id`, nearest first, ending with the root: `/a/b/c` → `['/a/b', '/a', '/']`; `/` → `[]`. */
export function ancestorsOf(id: string): string[] {
  const parts = segments(id);
  const out: string[] = [];
  for (let n = parts.length - 1; n >= 0; n--) out.push(joinSegments(parts.slice(0, n)));
  return out;
}

/**
 * The top-level group an id belongs to: `/prod/web` → `/prod`; a child of the root is its own top
 * level (`/prod` → `/prod`); the root has none (undefined).
 */
export function topLevelOf(id: string): string | undefined {
  const parts = segments(id);
  return parts.length === 0 ? undefined : joinSegments(parts.slice(0, 1));
}

/** True for ids directly below the root (`/prod`): the only groups that carry `enforceRole`. */
export function isTopLevel(id: string): boolean {
  if (isPlainAbsolute(id)) return id !== ROOT_ID && id.indexOf('/', 1) < 0;
  return segments(id).length === 1;
}

/** True when `ancestorId` is a proper ancestor of `id` (`/` is an ancestor of every other id; no id is its own ancestor). */
export function isAncestor(ancestorId: string, id: string): boolean {
  const a = segments(ancestorId);
  const b = segments(id);
  return a.length < b.length && a.every((s, i) => s === b[i]);
}

/**
 * Total order of path ids, segment by segment (Marathon's PathId ordering): a parent sorts before
 * its children, `/a/b` before `/a-b`. Deterministic: plain code-unit comparison of segments.
 */
export function comparePathIds(a: string, b: string): number {
  if (isPlainAbsolute(a) && isPlainAbsolute(b)) return compareCodeUnits(a, b);
  const x = segments(a);
  const y = segments(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * Absolute with no empty segment (`//`, a trailing `/`): its segments are exactly what its `/`s
 * separate, so it can be read without splitting it (every canonical id is plain).
 */
export function isPlainAbsolute(id: string): boolean {
  return id === ROOT_ID || (id.charCodeAt(0) === SLASH && id.charCodeAt(id.length - 1) !== SLASH && !id.includes('//'));
}

/**
 * {@link comparePathIds} of two plain absolute ids without splitting them (sorting the ids of a
 * large tree compared millions of split arrays): code units in order, with `/` below every other
 * code unit, which is the segment-by-segment order — a segment that ends first sorts first.
 * Both must be plain ({@link isPlainAbsolute}); the group tree's maps search their keys with it.
 */
export function compareCodeUnits(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

const SLASH = 0x2f;
