import t from 'tap';
import { makePod } from '../../builders/run-spec-builders';
import { appBody, groupKit, obj, objs } from './group-test-kit';

t.test('GET /v2/groups on an empty root: every list written, no enforceRole on the root (fact 67)', async (t) => {
  const kit = groupKit(t);
  const res = await kit.request('GET', '/v2/groups');
  t.equal(res.statusCode, 200);
  const root = obj(res.json);
  t.same(Object.keys(root).sort(), ['apps', 'dependencies', 'groups', 'id', 'pods', 'version']);
  t.match(root, { id: '/', apps: [], pods: [], groups: [], dependencies: [] });
  t.equal(root.version, kit.deps.scheduler.root().version);
});

t.test('a group tree: apps without counts by default, enforceRole only on top-level groups', async (t) => {
  const kit = groupKit(t);
  const created = await kit.request('POST', '/v2/groups', {
    id: '/prod', apps: [appBody('web')], groups: [{ id: 'db', apps: [appBody('pg')] }],
  });
  t.equal(created.statusCode, 201);
  kit.settle();
  const root = obj((await kit.request('GET', '/v2/groups')).json);
  const prod = objs(root.groups)[0];
  t.match(prod, { id: '/prod', enforceRole: false, dependencies: [], pods: [] });
  const web = objs(prod.apps)[0];
  t.match(web, { id: '/prod/web', cmd: 'sleep 1000', instances: 1 });
  t.notOk('tasksRunning' in web, 'no counts without group.apps.counts');
  t.notOk('deployments' in web, 'no deployments without an embed');
  const db = objs(prod.groups)[0];
  t.match(db, { id: '/prod/db' });
  t.notOk('enforceRole' in db, 'deeper groups have no enforceRole');
  t.equal(objs(db.apps)[0].id, '/prod/db/pg');
});

t.test('embeds (fact 68): any embed switches the defaults off', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a', { instances: 2 })], groups: [{ id: 'sub' }] });
  kit.settle();
  const table: { embed: string; apps: number; groups: number; has: string[]; hasNot: string[] }[] = [
    { embed: 'embed=group.apps.counts', apps: 0, groups: 0, has: [], hasNot: [] },
    { embed: 'embed=group.apps', apps: 1, groups: 0, has: [], hasNot: ['tasksRunning', 'tasks'] },
    { embed: 'embed=group.groups&embed=group.apps&embed=group.apps.counts', apps: 1, groups: 1, has: ['tasksRunning', 'tasksStaged', 'tasksHealthy', 'tasksUnhealthy'], hasNot: ['tasks'] },
    { embed: 'embed=group.apps,group.apps.tasks', apps: 1, groups: 0, has: ['tasks', 'deployments'], hasNot: ['tasksRunning'] },
    { embed: 'embed=group.apps&embed=group.apps.taskStats&embed=group.apps.deployments', apps: 1, groups: 0, has: ['tasksStats', 'deployments'], hasNot: ['tasks'] },
    { embed: 'embed=apps.tasks', apps: 0, groups: 0, has: [], hasNot: [] },
  ];
  for (const row of table) {
    const g = obj((await kit.request('GET', `/v2/groups/g?${row.embed}`)).json);
    t.equal(objs(g.apps).length, row.apps, `${row.embed}: apps`);
    t.equal(objs(g.groups).length, row.groups, `${row.embed}: groups`);
    t.same(g.pods, [], `${row.embed}: pods list still written`);
    const app = objs(g.apps)[0];
    for (const key of row.has) t.ok(app !== undefined && key in app, `${row.embed}: ${key}`);
    for (const key of row.hasNot) t.ok(app === undefined || !(key in app), `${row.embed}: no ${key}`);
  }
  const counted = objs(obj((await kit.request('GET', '/v2/groups/g?embed=group.apps&embed=group.apps.counts')).json).apps)[0];
  t.equal(counted.tasksRunning, 2, 'counts reflect the running instances');
});

t.test('GET /v2/groups/{id}: the group; unknown → 404 with details []', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/a/b' });
  const found = await kit.request('GET', '/v2/groups/a/b');
  t.equal(found.statusCode, 200);
  t.match(found.json, { id: '/a/b', apps: [], groups: [], pods: [] });
  const missing = await kit.request('GET', '/v2/groups/nope');
  t.equal(missing.statusCode, 404);
  t.same(missing.json, { message: "Group '/nope' does not exist", details: [] });
});

t.test('pods in a group view are pod status objects (facts 67, 81)', async (t) => {
  const kit = groupKit(t);
  t.equal(kit.harness.put(makePod({ id: '/pg/p' })).ok, true);
  const group = obj((await kit.request('GET', '/v2/groups/pg')).json);
  const pod = objs(group.pods)[0];
  t.match(pod, { id: '/pg/p', spec: { id: '/pg/p' } });
  t.ok(['STABLE', 'DEGRADED', 'TERMINAL'].includes(String(pod.status)));
  t.ok(Array.isArray(pod.instances));
  const noPods = obj((await kit.request('GET', '/v2/groups/pg?embed=group.apps')).json);
  t.same(noPods.pods, []);
});

t.test('GET /v2/groups/{id}/apps: every app below the group, a bare array', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')], groups: [{ id: 'sub', apps: [appBody('b')] }] });
  const res = await kit.request('GET', '/v2/groups/g/apps');
  t.equal(res.statusCode, 200);
  t.same(objs(res.json).map((a) => a.id), ['/g/a', '/g/sub/b']);
  t.same((await kit.request('GET', '/v2/groups/nope/apps')).json, []);
  t.same(objs((await kit.request('GET', '/v2/groups/apps')).json).map((a) => a.id), ['/g/a', '/g/sub/b']);
});

t.test('versions: a bare array of root versions holding the group; one version as GroupInfo (fact 69)', async (t) => {
  const kit = groupKit(t);
  const first = obj((await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')] })).json);
  kit.harness.advance(1000);
  const second = obj((await kit.request('PUT', '/v2/groups/g', { apps: [appBody('a'), appBody('b')] })).json);
  const list = await kit.request('GET', '/v2/groups/g/versions');
  t.equal(list.statusCode, 200);
  t.same(list.json, [second.version, first.version], 'newest first; versions before /g existed are left out');
  t.ok((await kit.request('GET', '/v2/groups/versions')).json instanceof Array, 'root versions');
  const old = await kit.request('GET', `/v2/groups/g/versions/${String(first.version)}`);
  t.equal(old.statusCode, 200);
  t.same(objs(obj(old.json).apps).map((a) => a.id), ['/g/a']);
  t.equal(obj(old.json).version, first.version);
  const unknownVersion = await kit.request('GET', '/v2/groups/g/versions/2001-01-01T00:00:00.000Z');
  t.equal(unknownVersion.statusCode, 404);
  t.same(unknownVersion.json, { message: "Group '/g' does not exist", details: [] });
  t.equal((await kit.request('GET', '/v2/groups/nope/versions')).statusCode, 404);
});
