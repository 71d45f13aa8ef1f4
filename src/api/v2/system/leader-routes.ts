import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { illegalArgument } from '../../errors';
import { queryOne, type Query } from '../../query';

/**
 * What the runtime offers for `DELETE /v2/leader` (not yet part of ApiDeps): give up leadership.
 * For a single node that means what Marathon does, stop the process (a supervisor restarts it);
 * the implementation must let the response go out first (Marathon waits about 0.5 s, fact 95).
 */
interface Abdication {
  abdicate?(): void;
}

/**
 * `GET /v2/leader` → `{"leader":"host:port"}` (fact 94: pacer is one node, always the leader);
 * `DELETE /v2/leader` → 200 `{"message":"Leadership abdicated"}` (fact 95), then the runtime's
 * abdication hook, when it has one. `backup`/`restore` (Marathon's state backup on abdication)
 * are refused with 422, the status Marathon gives an unusable URI: pacer has no state backup.
 */
export function leaderRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/leader', (_req, reply) => reply.type('application/json').send({ leader: deps.config.httpAddress }));

  app.delete('/v2/leader', async (req, reply) => {
    const query = req.query as Query;
    for (const name of ['backup', 'restore']) {
      const uri = queryOne(query, name);
      if (uri !== undefined) throw illegalArgument(`${name}=${uri}: pacer keeps no state backups, so it cannot ${name} on abdication`);
    }
    await reply.type('application/json').send({ message: 'Leadership abdicated' });
    (deps as ApiDeps & Abdication).abdicate?.();
    return reply;
  });
}
