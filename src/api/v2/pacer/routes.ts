import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';

/**
 * `GET /v2/pacer/set-aside`: pacer's own (Marathon has no such route, and `/v2/info` keeps
 * Marathon's fields only): the stored records this pacer could not load when it started and set
 * aside, with why (issue 11: no stored record may stop pacer from starting) —
 * `{"setAside": [{"kind": "runSpec", "key": "/a", "reason": "…"}]}`, empty for a sound store.
 * The records themselves are kept in the store's `set_aside` table (docs/limits.md).
 */
export function pacerRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/pacer/set-aside', (_req, reply) => reply.type('application/json').send({ setAside: deps.scheduler.setAsideRecords() }));
}
