import type { FastifyInstance } from 'fastify';
import { negotiate } from './negotiate';

/** What `/ping` can answer, in Marathon's order of preference. */
const PING_TYPES = ['text/plain', 'application/json', 'text/html'] as const;

/**
 * `GET /ping` (fact 96): `pong` as text/plain (also for no Accept, `*\/*`, `text/*`), the JSON
 * string `"pong"` for `Accept: application/json`, `pong` as text/html for `text/html`, and 204
 * without a body when nothing offered is acceptable. HEAD is answered too (fastify derives it
 * from GET: same status and headers, no body).
 */
export function pingRoute(app: FastifyInstance): void {
  // Never compressed (`pong` is far below the threshold, compression.ts): without the library's
  // onSend hook the health checks' route costs what it did.
  app.get('/ping', { compress: false }, (req, reply) => {
    const type = negotiate(req.headers.accept, PING_TYPES);
    if (type === undefined) return reply.code(204).send();
    if (type === 'application/json') return reply.type('application/json').send(JSON.stringify('pong'));
    return reply.type(type === 'text/html' ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8').send('pong');
  });
}
