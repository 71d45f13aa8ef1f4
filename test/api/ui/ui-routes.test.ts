import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import t from 'tap';
import { uiRoutes } from '../../../src/api/ui/ui-routes';
import { buildUi } from '../../../ui/build';
import { makeApi } from '../api-fixture';

/** The web UI as pacer serves it (`/ui/`): the built app, client-side routes, assets, and the API untouched. */

t.test('pacer serves the built UI under /ui/, its index for every page, its assets, and 404 for unknown assets', async (t) => {
  const built = await buildUi();
  t.ok(built.files.every((f) => f.bytes > 0), 'npm run build:ui wrote index.html, app.js, app.css');
  const { app } = makeApi();
  t.teardown(() => app.close());

  const root = await app.inject({ method: 'GET', url: '/' });
  t.equal(root.statusCode, 302);
  t.equal(root.headers.location, '/ui/', 'GET / redirects to the UI');

  for (const url of ['/ui/', '/ui', '/ui/apps/prod/web', '/ui/deployments', '/ui/no/such/page']) {
    const res = await app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, `${url}: 200`);
    t.match(res.headers['content-type'], /^text\/html/, `${url}: html`);
    t.match(res.body, /<script type="module" src="\/ui\/assets\/app\.js">/, `${url}: the app's index`);
  }
  const js = await app.inject({ method: 'GET', url: '/ui/assets/app.js' });
  t.equal(js.statusCode, 200);
  t.match(js.headers['content-type'], /javascript/);
  t.equal(js.body.length, built.files.find((f) => f.path === 'assets/app.js')?.bytes, 'the built bundle');
  const css = await app.inject({ method: 'GET', url: '/ui/assets/app.css' });
  t.match(css.headers['content-type'], /text\/css/);

  const missing = await app.inject({ method: 'GET', url: '/ui/assets/nope.js' });
  t.equal(missing.statusCode, 404, 'an unknown asset is a 404, not the index');
  t.same(missing.json(), { message: 'URI not found: GET /ui/assets/nope.js', details: [] }, "in the API's error shape");
  const escape = await app.inject({ method: 'GET', url: '/ui/assets/../../../package.json' });
  t.not(escape.statusCode, 200, 'no file outside the UI is served');

  const apps = await app.inject({ method: 'GET', url: '/v2/apps' });
  t.same(apps.json(), { apps: [] }, '/v2 is unchanged');
  const sim = await app.inject({ method: 'GET', url: '/pacer/v1/sim' });
  t.equal(sim.statusCode, 404, 'the simulation endpoint exists only over --cluster sim');
});

t.test('an unbuilt UI answers 404 saying how to build it', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'pacer-ui-empty-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const app = Fastify();
  uiRoutes(app, empty);
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'GET', url: '/ui/' });
  t.equal(res.statusCode, 404);
  t.match(res.json(), { message: /web UI is not built.*npm run build/ });
});
