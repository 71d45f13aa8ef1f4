import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors';

/**
 * `/v2/plugins` (Marathon's `api/v2/PluginsResource.scala`): `GET` lists the plugin definitions
 * Marathon loaded with `--plugin_dir`/`--plugin_conf`, written as `{"plugins":[…]}` (the
 * `PluginDefinitions` writer of `api/v2/json/Formats.scala`; the RAML `plugins.raml` example).
 * pacer loads no plugins: the list is always empty, `{"plugins":[]}`, as Marathon's without them
 * (`PluginDefinitions.None`). Requests to a plugin's own handler,
 * `/v2/plugins/{pluginId}/{path}`, find no plugin: Marathon's
 * `404 {"message":"No plugin with this pluginId: <id>","details":[]}`.
 */
export function pluginRoutes(app: FastifyInstance): void {
  app.get('/v2/plugins', (_req, reply) => reply.type('application/json').send({ plugins: [] }));
  const noPlugin = (rest: string): never => {
    throw notFound(`No plugin with this pluginId: ${rest.split('/')[0] ?? ''}`);
  };
  // Marathon's handler paths are `{pluginId}/{path:.+}`; GET also answers HEAD.
  for (const method of ['GET', 'PUT', 'POST', 'DELETE'] as const) {
    app.route({ method, url: '/v2/plugins/*', handler: (req) => noPlugin((req.params as { '*'?: string })['*'] ?? '') });
  }
}
