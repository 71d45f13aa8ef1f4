import t from 'tap';
import { stateSnapshot } from '../fuzz/state-snapshot';
import { apiFor, appBody } from './apps/apps-kit';

/**
 * A method a known `/v2` path is not served with answers 405 with `Allow` naming the methods
 * that serve it, in the catalogue's JSON shape, as Marathon's Jersey answers (`POST /v2/apps/foo`
 * answered 404 before); a path no method serves stays 404, and nothing changes either way.
 */

type Row = readonly [method: string, url: string, status: number, allow: string | undefined];

const rows: readonly Row[] = [
  ['POST', '/v2/apps/foo', 405, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
  ['POST', '/v2/apps/prod/web/tasks', 405, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
  ['POST', '/v2/apps/nope', 405, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
  ['DELETE', '/v2/apps', 405, 'GET, HEAD, POST, PUT, PATCH, OPTIONS'],
  ['PATCH', '/v2/groups', 405, 'GET, HEAD, POST, PUT, DELETE, OPTIONS'],
  ['PATCH', '/v2/pods', 405, 'GET, HEAD, POST, OPTIONS'],
  ['PUT', '/v2/pods/p::status', 405, 'GET, HEAD, OPTIONS'],
  ['GET', '/v2/deployments/abc', 405, 'DELETE, OPTIONS'],
  ['POST', '/v2/deployments', 405, 'GET, HEAD, OPTIONS'],
  ['DELETE', '/v2/tasks', 405, 'GET, HEAD, OPTIONS'],
  ['GET', '/v2/tasks/delete', 405, 'POST, OPTIONS'],
  ['HEAD', '/v2/tasks/delete', 405, 'POST, OPTIONS'],
  ['GET', '/v2/queue/foo/delay', 405, 'DELETE, OPTIONS'],
  ['POST', '/v2/info', 405, 'GET, HEAD, OPTIONS'],
  ['PUT', '/v2/leader', 405, 'GET, HEAD, DELETE, OPTIONS'],
  ['PATCH', '/v2/plugins', 405, 'GET, HEAD, OPTIONS'],
  ['PATCH', '/v2/plugins/x/y', 405, 'GET, HEAD, POST, PUT, DELETE, OPTIONS'],
  // Paths no method serves: 404 whatever the method.
  ['GET', '/v2/nope', 404, undefined],
  ['POST', '/v2/nope', 404, undefined],
  ['GET', '/v2/deployments/a/b', 404, undefined],
  ['DELETE', '/v2/queue/foo', 404, undefined],
  ['GET', '/v2/pods/p::nope', 404, undefined],
  // Not below /v2: unchanged.
  ['POST', '/ping', 404, undefined],
];

t.test('405 with Allow for a method a known /v2 path is not served with; 404 for a path none serves', async (t) => {
  const fx = apiFor(t);
  t.equal((await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: appBody({ id: '/foo' }) })).statusCode, 201);
  const before = stateSnapshot(fx.harness.scheduler);
  for (const [method, url, status, allow] of rows) {
    const res = await fx.app.inject({ method: method as 'GET', url });
    const name = `${method} ${url}`;
    t.equal(res.statusCode, status, `${name}: status (${res.body.slice(0, 200)})`);
    t.equal(res.headers.allow, allow, `${name}: Allow`);
    t.match(res.headers['content-type'], /^application\/json/, `${name}: JSON`);
    if (method === 'HEAD') {
      t.equal(res.body, '', `${name}: no body`);
    } else if (status === 405) {
      t.same(JSON.parse(res.body), { message: `Method Not Allowed: ${method} ${url} (allowed: ${allow})`, details: [] }, `${name}: body`);
    } else {
      t.same(JSON.parse(res.body), { message: `URI not found: ${method} ${url}`, details: [] }, `${name}: body`);
    }
    t.equal(res.headers['cache-control'], 'no-cache, no-store, must-revalidate', `${name}: the headers of every answer`);
  }
  t.equal(stateSnapshot(fx.harness.scheduler), before, 'nothing changed');
});

t.test('OPTIONS of a known /v2 path: 200 with Allow, no body, as JAX-RS answers it; of an unknown path 404; HEAD of a pod path answers as GET', async (t) => {
  const fx = apiFor(t);
  const rows: readonly [url: string, status: number, allow: string | undefined][] = [
    ['/v2/apps', 200, 'GET, HEAD, POST, PUT, PATCH, OPTIONS'],
    ['/v2/apps/foo', 200, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
    ['/v2/pods/p::status', 200, 'GET, HEAD, OPTIONS'],
    ['/v2/info', 200, 'GET, HEAD, OPTIONS'],
    ['/v2/nope', 404, undefined],
  ];
  for (const [url, status, allow] of rows) {
    const res = await fx.app.inject({ method: 'OPTIONS', url });
    t.equal(res.statusCode, status, `OPTIONS ${url}`);
    t.equal(res.headers.allow, allow, `OPTIONS ${url}: Allow`);
    if (status === 200) t.equal(res.body, '', `OPTIONS ${url}: no body`);
  }
  // Before 2026-12-03 the pod paths below /v2/pods answered HEAD 404, then 405 without HEAD in Allow.
  for (const url of ['/v2/pods/', '/v2/pods/nope', '/v2/pods/::status']) {
    const get = await fx.app.inject({ method: 'GET', url });
    const head = await fx.app.inject({ method: 'HEAD', url });
    t.equal(head.statusCode, get.statusCode, `HEAD ${url} answers as GET (${get.statusCode})`);
    t.equal(head.body, '', `HEAD ${url}: no body`);
  }
});
