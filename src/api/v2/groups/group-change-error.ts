import type { GroupFailure } from '../../../scheduler/index';
import { type ApiError, notFoundBare, objectNotValid } from '../../errors';

/**
 * The catalogue error for a refused change of the group tree: an unknown group or run spec → 404
 * without details (fact 2); anything else (ids shared by a group, an app or a pod, fact 76; a
 * deeper group given `enforceRole`) → 422 "Object is not valid" at `/`.
 */
export function groupChangeError(failure: GroupFailure): ApiError {
  if (failure.error === 'unknown-group' || failure.error === 'unknown-run-spec') return notFoundBare(failure.message);
  return objectNotValid([{ path: '/', errors: [failure.message] }]);
}
