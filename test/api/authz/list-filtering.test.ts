import t from 'tap';
import { as, authzApi, SEEDED, type TestPrincipal } from './authz-kit';

type Json = Record<string, unknown>;

/** Every run spec id in a group tree. */
function treeIds(group: Json): string[] {
  const own = [...(group.apps as Json[] ?? []), ...(group.pods as Json[] ?? [])].map((r) => r.id as string);
  return [...own, ...(group.groups as Json[] ?? []).flatMap(treeIds)];
}

const ALL = [SEEDED.teamAPod, SEEDED.teamAPending, SEEDED.teamAApp, SEEDED.teamBApp].sort();
const TEAM_A = [SEEDED.teamAPod, SEEDED.teamAPending, SEEDED.teamAApp].sort();

/** What each principal's lists hold: the same requests, filtered per principal (Marathon's isAuthorized(ViewRunSpec)). */
const CASES: readonly { who: TestPrincipal; runSpecs: readonly string[] }[] = [
  { who: 'admin', runSpecs: ALL },
  { who: 'viewer', runSpecs: ALL },
  { who: 'bob', runSpecs: ALL },
  { who: 'alice', runSpecs: TEAM_A },
  { who: 'nobody', runSpecs: [] },
];

for (const { who, runSpecs } of CASES) {
  t.test(`lists are filtered for ${who}, never refused`, async (tt) => {
    const fx = authzApi(tt);
    const get = async (url: string, accept = 'application/json') => {
      const res = await fx.app.inject({ url, headers: { ...as(who), accept } });
      tt.equal(res.statusCode, 200, `GET ${url}`);
      return res;
    };
    const apps = (await get('/v2/apps')).json().apps as Json[];
    tt.same(apps.map((a) => a.id).sort(), runSpecs.filter((id) => id !== SEEDED.teamAPod), '/v2/apps');
    const pods = (await get('/v2/pods')).json() as Json[];
    tt.same(pods.map((p) => p.id), runSpecs.filter((id) => id === SEEDED.teamAPod), '/v2/pods');
    const statuses = (await get('/v2/pods/::status')).json() as Json[];
    tt.same(statuses.map((p) => p.id), runSpecs.filter((id) => id === SEEDED.teamAPod), '/v2/pods/::status');
    tt.same(treeIds((await get('/v2/groups')).json()).sort(), runSpecs, '/v2/groups (the tree)');
    const tasks = (await get('/v2/tasks')).json().tasks as Json[];
    tt.same([...new Set(tasks.map((task) => task.appId))].sort(), runSpecs.filter((id) => id === SEEDED.teamAApp || id === SEEDED.teamBApp), '/v2/tasks');
    const plain = (await get('/v2/tasks', 'text/plain')).body;
    tt.equal(plain.includes('team-b_api'), runSpecs.includes(SEEDED.teamBApp), '/v2/tasks text/plain, team-b');
    tt.equal(plain.includes('team-a_web'), runSpecs.includes(SEEDED.teamAApp), '/v2/tasks text/plain, team-a');
    const queue = (await get('/v2/queue')).json().queue as Json[];
    tt.same(queue.map((q) => (q.app as Json).id), runSpecs.filter((id) => id === SEEDED.teamAPending), '/v2/queue');
    const deployments = (await get('/v2/deployments')).json() as Json[];
    tt.same(deployments.flatMap((d) => d.affectedApps as string[]), runSpecs.filter((id) => id === SEEDED.teamAPending), '/v2/deployments');
    const groupApps = (await get('/v2/apps/*')).json()['*'] as Json[];
    tt.same(groupApps.map((a) => a.id).sort(), runSpecs.filter((id) => id !== SEEDED.teamAPod), '/v2/apps/* (every app below the root)');
  });
}

t.test('a group tree keeps the path to what may be viewed, and only that', async (tt) => {
  const fx = authzApi(tt);
  const root = (await fx.app.inject({ url: '/v2/groups', headers: as('alice') })).json();
  tt.same((root.groups as Json[]).map((g) => g.id), ['/team-a'], 'team-b is left out of alice\'s root');
  tt.equal((await fx.app.inject({ url: '/v2/groups/team-b', headers: as('alice') })).statusCode, 403, 'and asked for, it is refused');
  tt.equal((await fx.app.inject({ url: '/v2/groups/team-a', headers: as('alice') })).statusCode, 200);
  tt.equal((await fx.app.inject({ url: '/v2/groups/team-a/versions', headers: as('bob') })).statusCode, 200, 'bob may view team-a\'s versions');
  tt.equal((await fx.app.inject({ url: '/v2/groups/team-b/versions', headers: as('alice') })).statusCode, 403);
});

t.test('single resources the principal may not view answer Marathon\'s 403', async (tt) => {
  const fx = authzApi(tt);
  for (const url of [`/v2/apps${SEEDED.teamBApp}`, `/v2/apps${SEEDED.teamBApp}/tasks`, `/v2/apps${SEEDED.teamBApp}/versions`, `/v2/pods${SEEDED.teamAPod}::status`, '/v2/info', '/metrics']) {
    const res = await fx.app.inject({ url, headers: as(url.includes('team-a') ? 'nobody' : 'alice') });
    tt.equal(res.statusCode, 403, url);
    tt.same(res.json(), { message: 'Not Authorized to perform this action!' }, url);
  }
  tt.equal((await fx.app.inject({ url: `/v2/apps${SEEDED.teamAApp}`, headers: as('alice') })).statusCode, 200, 'her own app');
  tt.equal((await fx.app.inject({ url: '/v2/info', headers: as('viewer') })).statusCode, 200, 'view at / includes system resources');
});
