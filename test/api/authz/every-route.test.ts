import t, { type Test } from 'tap';
import { EventStreamHub } from '../../../src/api/events/event-stream-hub';
import { ROUTE_RULES, ruleOf } from '../../../src/api/authz/route-rules';
import { makeApi } from '../api-fixture';
import { concreteUrl, serverWithRouteTable, type RouteEntry } from '../auth/auth-kit';
import { as, authzAuth, seed, SEEDED, stateOf, type TestPrincipal } from './authz-kit';

/**
 * Every route of fastify's own route table (the table the authentication tests use, so a new
 * route is covered without anyone listing it), asked by principals that may not touch what the
 * request names: each answers Marathon's 403, or — for lists — 200 without what it may not view,
 * and nothing changes.
 */
async function securedApi(tt: Test) {
  const { auth } = authzAuth(tt);
  const fx = makeApi({ auth });
  const seeded = seed(fx);
  const hub = new EventStreamHub({ subscribe: (listener) => fx.harness.scheduler.subscribe(listener), clock: fx.deps.clock });
  const { app, routes } = await serverWithRouteTable(tt, { deps: fx.deps, stream: hub, auth });
  tt.teardown(async () => {
    hub.close();
    await app.close();
    await fx.app.close();
  });
  return { fx, app, routes, ...seeded };
}

function checkedRoutes(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
}

const APP_BODY = { id: '/team-a/new', cmd: 'sleep 100', cpus: 0.1, mem: 16, instances: 1 };
const POD_BODY = { id: '/team-a/newpod', containers: [{ name: 'c', resources: { cpus: 0.1, mem: 16 }, exec: { command: { shell: 'sleep 100' } } }] };

/**
 * A request on `route` that names team-a's things (which `bob` may only view and `nobody` may not
 * see), with a body that passes validation, so that the authorization is what answers.
 */
function requestFor(route: RouteEntry, ids: { teamATaskId: string; pendingDeploymentId: string }): { url: string; payload?: unknown } {
  const key = `${route.method} ${route.url}`;
  switch (key) {
    case 'GET /v2/apps/*': return { url: `/v2/apps${SEEDED.teamAApp}` };
    case 'PUT /v2/apps/*': case 'PATCH /v2/apps/*': return { url: `/v2/apps${SEEDED.teamAApp}`, payload: { instances: 3 } };
    case 'DELETE /v2/apps/*': return { url: `/v2/apps${SEEDED.teamAApp}` };
    case 'POST /v2/apps/*': return { url: `/v2/apps${SEEDED.teamAApp}/restart` };
    case 'POST /v2/apps': return { url: '/v2/apps', payload: APP_BODY };
    case 'PUT /v2/apps': case 'PATCH /v2/apps': return { url: '/v2/apps', payload: [{ id: SEEDED.teamAApp, instances: 3 }] };
    case 'GET /v2/pods/*': return { url: `/v2/pods${SEEDED.teamAPod}` };
    case 'PUT /v2/pods/*': return { url: `/v2/pods${SEEDED.teamAPod}`, payload: { ...POD_BODY, id: SEEDED.teamAPod } };
    case 'DELETE /v2/pods/*': return { url: `/v2/pods${SEEDED.teamAPod}` };
    case 'POST /v2/pods': return { url: '/v2/pods', payload: POD_BODY };
    case 'GET /v2/groups/*': return { url: '/v2/groups/team-a' };
    case 'PUT /v2/groups': return { url: '/v2/groups', payload: { id: '/team-a', scaleBy: 2 } };
    case 'PUT /v2/groups/*': return { url: '/v2/groups/team-a', payload: { scaleBy: 2 } };
    case 'PATCH /v2/groups/*': return { url: '/v2/groups/team-a', payload: { enforceRole: true } };
    case 'POST /v2/groups': return { url: '/v2/groups', payload: { id: '/team-a/sub', apps: [{ ...APP_BODY, id: '/team-a/sub/x' }] } };
    case 'POST /v2/groups/*': return { url: '/v2/groups/team-a/sub', payload: { apps: [{ ...APP_BODY, id: '/team-a/sub/x' }] } };
    case 'DELETE /v2/groups/*': return { url: '/v2/groups/team-a' };
    case 'DELETE /v2/deployments/:id': return { url: `/v2/deployments/${ids.pendingDeploymentId}` };
    case 'POST /v2/tasks/delete': return { url: '/v2/tasks/delete', payload: { ids: [ids.teamATaskId] } };
    case 'DELETE /v2/queue/*': return { url: `/v2/queue${SEEDED.teamAPending}/delay` };
    case 'GET /v2/capacity': return { url: `/v2/capacity?app=${SEEDED.teamAApp}` };
    default: return { url: concreteUrl(route.url) };
  }
}

const DENIED = { message: 'Not Authorized to perform this action!' };

t.test('the rule table names exactly the routes of fastify\'s table (none falls to the default)', async (tt) => {
  const { routes } = await securedApi(tt);
  const table = new Set(checkedRoutes(routes).map((r) => `${r.method} ${r.url}`));
  for (const key of table) tt.ok(key in ROUTE_RULES, `${key} has a rule`);
  for (const key of Object.keys(ROUTE_RULES)) {
    if (key !== 'GET /pacer/v1/sim') tt.ok(table.has(key), `${key} is a route`);
  }
  tt.ok(table.size >= 30, `${table.size} routes`);
});

for (const principal of ['nobody', 'bob'] as const satisfies readonly TestPrincipal[]) {
  t.test(`every route refuses ${principal} what it may not do, filters what it may not view, and changes nothing`, async (tt) => {
    const { fx, app, routes, teamATaskId, pendingDeploymentId } = await securedApi(tt);
    const before = stateOf(fx);
    for (const route of checkedRoutes(routes)) {
      const rule = ruleOf(route.method, route.url);
      const { url, payload } = requestFor(route, { teamATaskId, pendingDeploymentId });
      const res = await app.inject({ method: route.method as 'GET', url, headers: { ...as(principal), 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
      const where = `${route.method} ${url} as ${principal}`;
      if (rule.kind === 'any') {
        tt.not(res.statusCode, 403, `${where}: open to every authenticated caller`);
        continue;
      }
      const isList = route.method === 'GET' && rule.kind === 'runSpecs' && rule.before === undefined;
      const mayView = principal === 'bob';
      // A capacity question simulates a scale-up: it needs UpdateRunSpec, which viewing does not give.
      const simulatesWrite = route.url === '/v2/capacity';
      if (isList || (mayView && route.method === 'GET' && rule.kind === 'runSpecs' && !simulatesWrite)) {
        tt.equal(res.statusCode, 200, `${where}: a list, filtered`);
        if (!mayView) tt.notMatch(res.body, /team-a/, `${where}: nothing of /team-a`);
        continue;
      }
      if (principal === 'nobody' && route.method === 'GET' && route.url === '/v2/groups') {
        tt.equal(res.statusCode, 200, `${where}: the root, empty`);
        tt.notMatch(res.body, /team-/, where);
        continue;
      }
      tt.equal(res.statusCode, 403, where);
      tt.same(res.json(), DENIED, where);
      tt.equal(stateOf(fx), before, `${where}: nothing changed`);
    }
  });
}

t.test('every route serves the admin (never a 403), as without a policy', async (tt) => {
  const { app, routes, teamATaskId, pendingDeploymentId } = await securedApi(tt);
  for (const route of checkedRoutes(routes)) {
    const { url } = requestFor(route, { teamATaskId, pendingDeploymentId });
    // GETs only: the writes would change the state the other routes read.
    if (route.method !== 'GET') continue;
    const res = await app.inject({ method: 'GET', url, headers: as('admin') });
    tt.not(res.statusCode, 403, `GET ${url}`);
  }
});
