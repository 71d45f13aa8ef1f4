import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api-deps';

/**
 * `GET /pacer/v1/set-aside`: pacer's own (outside `/v2`, like `/pacer/v1/sim`: Marathon has no such route, and `/v2/info` keeps
 * Marathon's fields only): the stored records this pacer could not load when it started and set
 * aside, with why (issue 11: no stored record may stop pacer from starting) —
 * `{"setAside": [{"kind": "runSpec", "key": "/a", "reason": "…"}]}`, empty for a sound store.
 * The records themselves are kept in the store's `set_aside` table (docs/limits.md).
 */
export function setAsideRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/pacer/v1/set-aside', (_req, reply) => reply.type('application/json').send({ setAside: deps.scheduler.setAsideRecords() }));
}
