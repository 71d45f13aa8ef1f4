import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { infoJson } from './info-json';
import { leaderRoutes } from './leader-routes';
import { metricsRoutes } from './metrics-routes';
import { pingRoute } from './ping-route';

/**
 * System endpoints (section I of the facts): `/v2/info`, `/v2/leader`, `/ping`, `/metrics`,
 * `/metrics/prometheus`, and `GET /` → 302 `/ui/` (fact 97). Also installs the global HTTP
 * metrics hooks (they see every route, whatever module registered it).
 */
export function systemRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v2/info', (_req, reply) => reply.type('application/json').send(infoJson(deps)));
  app.get('/', (_req, reply) => reply.redirect('/ui/', 302));
  leaderRoutes(app, deps);
  pingRoute(app);
  metricsRoutes(app, deps);
}
