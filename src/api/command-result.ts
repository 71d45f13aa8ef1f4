import type { CommandResult } from '../scheduler/model/inputs';
import type { ApiError } from './errors';
import { illegalArgument, locked, notFoundBare, objectNotValid, tooManyDeployments } from './errors';

/** A successful command's result: the deployment it started (if any) and the root version. */
export interface CommandOk {
  readonly deploymentId?: string;
  readonly version?: string;
}

/**
 * Unwraps a core CommandResult for a route: success values pass through, failures become the
 * catalogue's ApiError (so every route maps core failures the same way). `maxRunningDeployments`
 * words the 403 (fact 8).
 */
export function expectOk(result: CommandResult, maxRunningDeployments: number): CommandOk {
  if (result.ok) return result;
  throw commandError(result, maxRunningDeployments);
}

/** The catalogue error for a failed command. */
export function commandError(result: Extract<CommandResult, { ok: false }>, maxRunningDeployments: number): ApiError {
  switch (result.error) {
    case 'locked':
      return locked(result.deployments ?? []);
    case 'too-many-deployments':
      return tooManyDeployments(maxRunningDeployments);
    case 'unknown-run-spec':
    case 'unknown-deployment':
      return notFoundBare(result.message);
    case 'invalid':
      return objectNotValid(result.details ?? [{ path: '/', errors: [result.message] }]);
    case 'illegal-argument':
      return illegalArgument(result.message);
  }
}
