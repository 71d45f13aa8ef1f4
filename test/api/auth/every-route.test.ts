import t, { type Test } from 'tap';
import { join } from 'node:path';
import { makeApi } from '../api-fixture';
import { EventStreamHub } from '../../../src/api/events/event-stream-hub';
import { MALFORMED_AUTHORIZATION_MESSAGE } from '../../../src/api/auth/authorization-header';
import { basic, bearer, concreteUrl, openAuth, serverWithRouteTable, tempDir, writeCredentials, writeTokens, type RouteEntry } from './auth-kit';

const TOKEN = 'tok-0123456789abcdef-ops';

/** Every route of the API from fastify's own table, with credentials from all three sources. */
async function securedApi(tt: Test) {
  const dir = tempDir(tt);
  const auth = openAuth({
    httpCredentials: 'admin:flag-pass',
    credentialsFile: await writeCredentials(join(dir, 'credentials'), { alice: 'file-pass' }),
    tokensFile: writeTokens(join(dir, 'tokens'), { ops: TOKEN }),
    // Every route is tried with wrong credentials from one address: the 401s are what is tested
    // here, not the limit on failed logins (failed-logins.test.ts).
    loginFailures: 0,
  });
  const api = makeApi({ auth });
  // The full API: a hub that attaches clients, so /v2/events is served too.
  const hub = new EventStreamHub({ subscribe: (listener) => api.harness.scheduler.subscribe(listener), clock: api.deps.clock });
  const { app, routes } = await serverWithRouteTable(tt, { deps: api.deps, stream: hub, auth });
  tt.teardown(async () => {
    auth.close();
    await app.close();
    await api.app.close();
  });
  return { app, harness: api.harness, routes };
}

/** The routes of the table, without HEAD (fastify's automatic twin of GET, checked via GET). */
function checkedRoutes(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
}

const INVALID = { message: 'Invalid username or password.' };
const MALFORMED = { message: MALFORMED_AUTHORIZATION_MESSAGE };

const WRONG: ReadonlyArray<readonly [string, Record<string, string>, { message: string }]> = [
  ['no credentials', {}, INVALID],
  ['a wrong password', { authorization: basic('admin', 'nope') }, INVALID],
  ['a wrong password of a file user', { authorization: basic('alice', 'flag-pass') }, INVALID],
  ['an unknown user', { authorization: basic('mallory', 'flag-pass') }, INVALID],
  ['a wrong token', { authorization: bearer('tok-0123456789abcdef-opX') }, INVALID],
  ['a token sent as basic', { authorization: basic('ops', TOKEN) }, INVALID],
  ['a malformed header', { authorization: 'Basic %%%' }, MALFORMED],
  ['another scheme', { authorization: 'Digest username="admin"' }, INVALID],
];

t.test('the route table is fastify\'s and holds the API (so the loop below cannot pass on nothing)', async (tt) => {
  const { routes } = await securedApi(tt);
  const urls = new Set(routes.map((r) => `${r.method} ${r.url}`));
  for (const known of ['GET /v2/apps', 'POST /v2/apps', 'GET /v2/events', 'GET /ping', 'DELETE /v2/groups/*', 'GET /v2/info', 'GET /metrics']) {
    tt.ok(urls.has(known), known);
  }
  tt.ok(checkedRoutes(routes).length >= 30, `${checkedRoutes(routes).length} routes`);
});

t.test('every route but /ping answers Marathon\'s 401 to a caller without valid credentials (a malformed header: a 401 that says so)', async (tt) => {
  const { app, harness, routes } = await securedApi(tt);
  for (const route of checkedRoutes(routes)) {
    if (route.url === '/ping') continue;
    for (const [what, headers, body] of WRONG) {
      const res = await app.inject({ method: route.method as 'GET', url: concreteUrl(route.url), headers: { accept: 'text/event-stream, application/json', ...headers } });
      const where = `${route.method} ${route.url} with ${what}`;
      tt.equal(res.statusCode, 401, where);
      tt.same(res.json(), body, where);
      tt.same(res.headers['www-authenticate'], ['Basic realm="Mesosphere"', 'Bearer realm="Mesosphere"'], where);
    }
  }
  tt.equal(harness.scheduler.runSpecs().length, 0, 'nothing was created');
});

t.test('every route serves each credential source (never a 401)', async (tt) => {
  const { app, routes } = await securedApi(tt);
  const good = [basic('admin', 'flag-pass'), basic('alice', 'file-pass'), bearer(TOKEN)];
  for (const route of checkedRoutes(routes)) {
    // (No Accept: text/event-stream, so /v2/events answers its 405 here instead of streaming.)
    for (const authorization of good) {
      const res = await app.inject({ method: route.method as 'GET', url: concreteUrl(route.url), headers: { authorization } });
      tt.not(res.statusCode, 401, `${route.method} ${route.url} with ${authorization.split(' ')[0]}`);
    }
  }
});

t.test('/ping stays open; an unknown path is a 401, not a 404 (paths are not revealed)', async (tt) => {
  const { app } = await securedApi(tt);
  const ping = await app.inject({ url: '/ping' });
  tt.equal(ping.statusCode, 200);
  tt.equal(ping.body, 'pong');
  const head = await app.inject({ method: 'HEAD', url: '/ping' });
  tt.equal(head.statusCode, 200);
  const unknown = await app.inject({ url: '/v2/nothing-here' });
  tt.equal(unknown.statusCode, 401);
  const unknownAuthed = await app.inject({ url: '/v2/nothing-here', headers: { authorization: bearer(TOKEN) } });
  tt.equal(unknownAuthed.statusCode, 404);
});

t.test('the principal is attached to the request', async (tt) => {
  const auth = openAuth({ httpCredentials: 'alice:pw', tokensFile: writeTokens(join(tempDir(tt), 'tokens'), { ops: TOKEN }) });
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  const seen: unknown[] = [];
  api.app.addHook('onResponse', (request, _reply, done) => {
    seen.push(request.principal);
    done();
  });
  await api.app.inject({ url: '/v2/info', headers: { authorization: basic('alice', 'pw') } });
  await api.app.inject({ url: '/v2/info', headers: { authorization: bearer(TOKEN) } });
  await api.app.inject({ url: '/ping' });
  await api.app.inject({ url: '/v2/info' });
  tt.same(seen, [{ name: 'alice', scheme: 'basic' }, { name: 'ops', scheme: 'bearer' }, null, null]);
});

t.test('without credentials configured the API is open, as today', async (tt) => {
  const api = makeApi();
  tt.teardown(() => api.app.close());
  const res = await api.app.inject({ url: '/v2/apps' });
  tt.equal(res.statusCode, 200);
  tt.equal(res.headers['www-authenticate'], undefined);
});

t.test('the realm and the open paths are configurable; an empty list opens nothing (Marathon guards /ping too)', async (tt) => {
  const auth = openAuth({ httpCredentials: 'u:p', realm: 'Team "A"', openPaths: ['/v2/info'] });
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  tt.equal((await api.app.inject({ url: '/v2/info' })).statusCode, 200);
  const ping = await api.app.inject({ url: '/ping' });
  tt.equal(ping.statusCode, 401);
  tt.equal(ping.headers['www-authenticate'], 'Basic realm="Team \\"A\\""');
  const closed = openAuth({ httpCredentials: 'u:p', openPaths: [] });
  const closedApi = makeApi({ auth: closed });
  tt.teardown(async () => { closed.close(); await closedApi.app.close(); });
  tt.equal((await closedApi.app.inject({ url: '/ping' })).statusCode, 401);
});
