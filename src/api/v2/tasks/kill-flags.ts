import { badRequest, type ApiError } from '../../errors';
import { type Query, queryBool } from '../../query';

/** The flags of the task-kill endpoints (`DELETE /v2/apps/{id}/tasks…`, `POST /v2/tasks/delete`). */
export interface KillFlags {
  readonly scale: boolean;
  readonly wipe: boolean;
  readonly force: boolean;
}

/**
 * Reads `scale`, `wipe` and `force` (all default false). Fact 55/58: `scale` with `wipe` → 400,
 * refused before the body or the app is looked at.
 */
export function killFlagsOf(query: Query): KillFlags {
  const flags = { scale: queryBool(query, 'scale', false), wipe: queryBool(query, 'wipe', false), force: queryBool(query, 'force', false) };
  if (flags.scale && flags.wipe) throw scaleWithWipe();
  return flags;
}

/** Fact 55: `scale` and `wipe` together → 400. */
export function scaleWithWipe(): ApiError {
  return badRequest('You cannot use scale and wipe at the same time.');
}
