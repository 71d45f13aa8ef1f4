/**
 * Path ids of the group tree (Marathon's `state/PathId.scala`): `/prod/web/frontend`. Groups, apps
 * and pods share one namespace of such ids; the root group is `/`.
 *
 * - A segment is lowercase letters, digits, `-` and `.`: dot-separated labels, each starting and
 *   ending with a letter or digit (`web`, `a-b`, `v1.2`), or exactly `.` / `..` (resolved by
 *   {@link resolvePathId}).
 * - The last segment must not be `restart`, `tasks`, `versions`, `.` or `..`.
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
/** The same pattern, anchored as Java's `Matcher.matches()` anchors it (the whole segment). */
const SEGMENT = new RegExp(`^(?:${SEGMENT_SOURCE})$`);

const RESERVED_LAST: readonly string[] = ['restart', 'tasks', 'versions', '.', '..'];

/** Marathon's message for a segment outside the pattern. */
export const PATH_PATTERN_MESSAGE = `must fully match regular expression '${SEGMENT_SOURCE}'`;
/** Marathon's message for a reserved last segment. */
export const RESERVED_ID_MESSAGE = `must not end with any of the following reserved keywords: ${RESERVED_LAST.join(', ')}`;
/** Marathon's message for an id with no segment (`/` where a run spec or group id is needed). */
export const EMPTY_PATH_MESSAGE = 'Path must contain at least one path element';

/**
 * Why `id` is not a valid path id (absolute or relative): Marathon's messages, at most one per
 * rule, in Marathon's order. Empty when valid. The root id `/` is valid only with `allowRoot`.
 */
export function validatePathId(id: string, options: { readonly allowRoot?: boolean } = {}): string[] {
  const parts = segments(id);
  const errors: string[] = [];
  if (parts.length === 0) {
    if (options.allowRoot !== true) errors.push(EMPTY_PATH_MESSAGE);
    return errors;
  }
  if (!parts.every((p) => SEGMENT.test(p))) errors.push(PATH_PATTERN_MESSAGE);
  if (RESERVED_LAST.includes(parts[parts.length - 1])) errors.push(RESERVED_ID_MESSAGE);
  return errors;
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
  const x = segments(a);
  const y = segments(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}
