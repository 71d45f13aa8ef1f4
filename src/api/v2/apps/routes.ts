import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';

/** Placeholder: routes of /v2/apps land here (issue 5, in progress). */
export function appsRoutes(_app: FastifyInstance, _deps: ApiDeps): void {
  // Not yet implemented: unknown routes answer 404 through the server's not-found handler.
}
