import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors';
import { uiDistDir } from './ui-dir';

/** The path prefix of the web UI; `GET /` redirects here (system routes, fact 97). */
export const UI_PREFIX = '/ui/';

/**
 * Serves the web UI built by `npm run build` (`ui/`, bundled into `dir`): its files under
 * `/ui/assets/` with `@fastify/static` (an unknown asset is the API's 404), and the app's
 * `index.html` for `/ui/` and every other `/ui/...` path, so that the UI's own routes
 * (`/ui/apps/web`, `/ui/deployments`, …) can be bookmarked and reloaded (client-side routing).
 * When the UI has not been built, those paths answer 404 with a message saying how to build it.
 * The UI is a client of the `/v2` API like any other; nothing here changes the API.
 */
export function uiRoutes(app: FastifyInstance, dir: string = uiDistDir()): void {
  void app.register(fastifyStatic, {
    root: join(dir, 'assets'), prefix: `${UI_PREFIX}assets/`, index: false, decorateReply: true,
  });
  const serveIndex = (_req: unknown, reply: FastifyReply): FastifyReply => {
    if (!existsSync(join(dir, 'index.html'))) throw uiNotBuilt(dir);
    return reply.type('text/html; charset=utf-8').sendFile('index.html', dir);
  };
  app.get(UI_PREFIX, serveIndex);
  app.get(`${UI_PREFIX}*`, serveIndex);
}

function uiNotBuilt(dir: string): ApiError {
  return new ApiError(404, { message: `The web UI is not built (no ${join(dir, 'index.html')}): run npm run build`, details: [] });
}
