import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../api-deps';
import { conflict, notFound, unavailable } from '../errors';

/**
 * `POST /pacer/v1/recording`: pacer's own (outside `/v2`): writes the flight recorder's always-on
 * ring of recent inputs (`--record_ring`) to a fresh directory next to the store file and answers
 * `{"path", "inputs", "dropped", "replayable"}` — `replayable` while no input has fallen out of the
 * ring since the start (`npm run sim -- replay PATH`). 404 where there is no recorder
 * (`--cluster sim`, whose runs replay from their scenario file); 409 when pacer keeps no ring
 * (`--record_ring 0`: nothing is made); 503 when the directory cannot be written. Nothing of the
 * request is read: a client cannot choose where pacer writes.
 */
export function recordingRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.post('/pacer/v1/recording', (_req, reply) => {
    if (deps.recording === undefined) throw notFound('this cluster has no flight recorder (local and Mesos clusters have one)');
    let dump;
    try {
      dump = deps.recording.dump();
    } catch (err) {
      throw unavailable(`cannot write the recording: ${(err as Error).message}`);
    }
    if (dump === undefined) throw conflict('pacer keeps no ring of recent inputs (--record_ring 0): nothing to write; --record DIR records every input as it happens');
    return reply.type('application/json').send(dump);
  });
}
