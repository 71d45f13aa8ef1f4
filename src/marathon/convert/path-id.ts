import { PATH_PATTERN_MESSAGE, isCanonical, validatePathId } from '../../scheduler/index';
import type { WireObject } from './wire-object';

/** Pattern violation of an id that is not in canonical form (play-json key, as Marathon's RAML reader reports it). */
export const ID_PATTERN_MESSAGE = 'error.pattern';

/** An id that does not start with `/`; relative ids are resolved by the caller, not here. */
export const ID_NOT_ABSOLUTE_MESSAGE = "id must be an absolute path starting with '/'";

/**
 * Reads and checks the `id` of a run spec: an absolute path id such as `/prod/web` (at least one
 * segment, no empty, `.` or `..` segment, the last one not reserved, within the id limits).
 * Problems are recorded at `/id`; the id is returned only when it is valid.
 */
export function pathIdFromWire(def: WireObject): string | undefined {
  if (!def.has('id')) {
    def.fail('id', 'error.path.missing');
    return undefined;
  }
  const id = def.optionalString('id');
  if (id === undefined) return undefined;
  const problems = pathIdProblems(id);
  if (problems.length === 0) return id;
  for (const problem of problems) def.fail('id', problem);
  return undefined;
}

/**
 * Why `id` is not a valid absolute run spec id (empty when it is): the path id rules of
 * `scheduler/groups/path-id.ts` (Marathon's messages and pacer's limits), and canonical form
 * (no empty segment, no trailing `/`: callers resolve ids before converting).
 */
export function pathIdProblems(id: string): string[] {
  if (!id.startsWith('/')) return [ID_NOT_ABSOLUTE_MESSAGE];
  // A segment outside the pattern is the RAML reader's `error.pattern`, as for the API's bodies.
  const problems = validatePathId(id).map((m) => (m === PATH_PATTERN_MESSAGE ? ID_PATTERN_MESSAGE : m));
  if (problems.length === 0 && !isCanonical(id)) problems.push(ID_PATTERN_MESSAGE);
  return problems;
}

/** The first of {@link pathIdProblems}, or undefined when `id` is valid. */
export function pathIdProblem(id: string): string | undefined {
  return pathIdProblems(id)[0];
}

/** The group role of a run spec (`/dev/api` → `dev`): the core's rule. */
export { groupRoleOf } from '../../scheduler/index';
