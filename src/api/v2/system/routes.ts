import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api-deps';
import { infoJson } from './info-json';
import { leaderRoutes } from './leader-routes';
import { metricsRoutes } from './metrics-routes';
import { pingRoute } from './ping-route';
import { pluginRoutes } from './plugin-routes';
import type { RequestLifecycle } from '../../request-lifecycle';

/**
 * System endpoints (section I of the facts): `/v2/info`, `/v2/leader`, `/v2/plugins`, `/ping`, `/metrics`,
 * `/metrics/prometheus`, and `GET /` → 302 `/ui/` (fact 97). The HTTP metrics see every request
 * of the server through its `lifecycle`, whatever module registered the route.
 */
export function systemRoutes(app: FastifyInstance, deps: ApiDeps, lifecycle: RequestLifecycle): void {
  app.get('/v2/info', (_req, reply) => reply.type('application/json').send(infoJson(deps)));
  app.get('/', (_req, reply) => reply.redirect('/ui/', 302));
  leaderRoutes(app, deps);
  pluginRoutes(app);
  pingRoute(app);
  metricsRoutes(app, deps, lifecycle);
}
