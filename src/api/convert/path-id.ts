import type { WireObject } from './wire-object';

/** One path segment: lowercase letters, digits, `-` and `.`, not starting or ending with `-`. */
const SEGMENT = /^[a-z0-9.]([a-z0-9.-]*[a-z0-9.])?$/;

/** Last segments that would clash with the API's own sub-resources. */
const RESERVED_LAST = ['restart', 'tasks', 'versions', '.', '..'];

/** Marathon's message for a reserved last segment. */
export const RESERVED_ID_MESSAGE =
  'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..';

/** Pattern violation of an id (play-json key, as Marathon's RAML reader reports it). */
export const ID_PATTERN_MESSAGE = 'error.pattern';

/** An id that does not start with `/`; relative ids are resolved by the caller, not here. */
export const ID_NOT_ABSOLUTE_MESSAGE = "id must be an absolute path starting with '/'";

/**
 * Reads and checks the `id` of a run spec: an absolute path id such as `/prod/web` (at least one
 * segment, no empty, `.` or `..` segment, the last one not reserved). Problems are recorded at
 * `/id`; the id is returned only when it is valid.
 */
export function pathIdFromWire(def: WireObject): string | undefined {
  if (!def.has('id')) {
    def.fail('id', 'error.path.missing');
    return undefined;
  }
  const id = def.optionalString('id');
  if (id === undefined) return undefined;
  const problem = pathIdProblem(id);
  if (problem === undefined) return id;
  def.fail('id', problem);
  return undefined;
}

/** Why `id` is not a valid absolute run spec id, or undefined when it is. */
export function pathIdProblem(id: string): string | undefined {
  if (!id.startsWith('/')) return ID_NOT_ABSOLUTE_MESSAGE;
  const segments = id.slice(1).split('/');
  const last = segments[segments.length - 1];
  if (RESERVED_LAST.includes(last)) return RESERVED_ID_MESSAGE;
  const bad = segments.some((s) => s === '.' || s === '..' || !SEGMENT.test(s));
  return bad ? ID_PATTERN_MESSAGE : undefined;
}

/**
 * The group role of a run spec: the name of its top-level group (`/dev/api` → `dev`); undefined for
 * run specs directly in the root group.
 */
export function groupRoleOf(id: string): string | undefined {
  const segments = id.split('/').filter((s) => s !== '');
  return segments.length >= 2 ? segments[0] : undefined;
}
