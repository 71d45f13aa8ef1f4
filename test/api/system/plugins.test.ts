import t from 'tap';
import { makeApi } from '../api-fixture';

/**
 * `/v2/plugins` (Marathon's PluginsResource): the list of loaded plugin definitions, always empty
 * for pacer, which loads none; a plugin's own paths find no plugin (Marathon's 404).
 */

const rows: ReadonlyArray<{ method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE'; url: string; status: number; body: unknown }> = [
  { method: 'GET', url: '/v2/plugins', status: 200, body: { plugins: [] } },
  { method: 'GET', url: '/v2/plugins/', status: 200, body: { plugins: [] } },
  { method: 'HEAD', url: '/v2/plugins', status: 200, body: undefined },
  { method: 'GET', url: '/v2/plugins/webjar/index.html', status: 404, body: { message: 'No plugin with this pluginId: webjar', details: [] } },
  { method: 'PUT', url: '/v2/plugins/webjar/a/b', status: 404, body: { message: 'No plugin with this pluginId: webjar', details: [] } },
  { method: 'POST', url: '/v2/plugins/x/y', status: 404, body: { message: 'No plugin with this pluginId: x', details: [] } },
  { method: 'DELETE', url: '/v2/plugins/x/y', status: 404, body: { message: 'No plugin with this pluginId: x', details: [] } },
  { method: 'HEAD', url: '/v2/plugins/x/y', status: 404, body: undefined },
];

t.test('GET /v2/plugins → {"plugins":[]}; a plugin path → 404 naming the plugin id', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  for (const row of rows) {
    const res = await fx.app.inject({ method: row.method, url: row.url });
    const name = `${row.method} ${row.url}`;
    t.equal(res.statusCode, row.status, `${name}: status (${res.body.slice(0, 200)})`);
    t.match(res.headers['content-type'], /^application\/json/, `${name}: JSON`);
    if (row.body === undefined) t.equal(res.body, '', `${name}: no body`);
    else t.same(JSON.parse(res.body), row.body, `${name}: body`);
  }
});
