import type { FastifyInstance } from 'fastify';
import { SIM_VIEW_SCHEMA, type SimViewJson } from './sim-view';

/** The path of {@link simRoutes}' endpoint. */
export const SIM_VIEW_PATH = '/pacer/v1/sim';

/**
 * `GET /pacer/v1/sim` over `--cluster sim` (registered by the sim composition only): the virtual
 * time, the agents and the workload's faults, as `view()` reads them at the moment of the request.
 * Read-only; answers {@link SimViewJson} (schema {@link SIM_VIEW_SCHEMA}).
 */
export function simRoutes(app: FastifyInstance, view: () => SimViewJson): void {
  app.get(SIM_VIEW_PATH, { schema: { response: { 200: SIM_VIEW_SCHEMA } } }, (_req, reply) => {
    void reply.type('application/json').send(view());
  });
}
