import t from 'tap';
import { findGroup, findRunSpec } from '../../../src/scheduler/groups/tree-query';
import { makePod } from '../../builders/run-spec-builders';
import { appBody, groupKit, obj, objs } from './group-test-kit';

t.test('POST /v2/groups: 201 + Location + Marathon-Deployment-Id + {version, deploymentId} (facts 13, 65)', async (t) => {
  const kit = groupKit(t);
  const res = await kit.request('POST', '/v2/groups', { id: '/g' });
  t.equal(res.statusCode, 201);
  const body = obj(res.json);
  t.same(Object.keys(body).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], body.deploymentId);
  t.match(String(res.headers.location), /\/g$/);
  t.equal(body.version, kit.deps.scheduler.root().version);
  t.ok(findGroup(kit.deps.scheduler.root(), '/g'));
});

t.test('Location resolves the created id against the request\'s Host, for a group as for an app (facts 17, 65)', async (t) => {
  const kit = groupKit(t);
  const rows = [
    { url: '/v2/groups', body: { id: '/loc' }, want: 'http://marathon.example:8080/loc' },
    { url: '/v2/apps', body: { id: '/loc2', cmd: 'sleep 1' }, want: 'http://marathon.example:8080/loc2' },
    { url: '/v2/groups/outer', body: { id: 'inner' }, want: 'http://marathon.example:8080/outer/inner' },
  ];
  for (const row of rows) {
    const res = await kit.app.inject({ method: 'POST', url: row.url, payload: row.body, headers: { host: 'marathon.example:8080' } });
    t.equal(res.statusCode, 201, row.url);
    t.equal(res.headers.location, row.want, `${row.url} ${JSON.stringify(row.body)}`);
  }
});

t.test('POST conflicts (fact 65): an existing group, an existing app → 409 with Marathon\'s text', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')] });
  const group = await kit.request('POST', '/v2/groups', { id: '/g' });
  t.equal(group.statusCode, 409);
  t.same(group.json, { message: 'Group /g is already created. Use PUT to change this group.' });
  const app = await kit.request('POST', '/v2/groups', { id: '/g/a' });
  t.equal(app.statusCode, 409);
  t.same(app.json, { message: 'An app with the path /g/a already exists.' });
});

t.test('relative ids resolve against the group, relative dependencies become absolute (fact 66)', async (t) => {
  const kit = groupKit(t);
  const res = await kit.request('POST', '/v2/groups', {
    id: '/g',
    apps: [appBody('db'), appBody('./web', { dependencies: ['db', '../other/x'] })],
    groups: [{ id: 'sub', dependencies: ['../db'] }],
  });
  t.equal(res.statusCode, 201);
  const root = kit.deps.scheduler.root();
  const web = findRunSpec(root, '/g/web');
  t.same(web?.kind === 'app' ? web.dependencies : undefined, ['/g/db', '/other/x']);
  t.same(findGroup(root, '/g/sub')?.dependencies, ['/g/db']);
  const shown = objs(obj((await kit.request('GET', '/v2/groups/g')).json).apps).find((a) => a.id === '/g/web');
  t.same(shown?.dependencies, ['/g/db', '/other/x']);
});

t.test('POST /v2/groups/{id} with a relative id creates the group inside the URL\'s group', async (t) => {
  const kit = groupKit(t);
  t.equal((await kit.request('POST', '/v2/groups/parent', { id: 'child' })).statusCode, 201);
  t.ok(findGroup(kit.deps.scheduler.root(), '/parent/child'));
  t.equal((await kit.request('POST', '/v2/groups', { id: 'relative' })).statusCode, 201);
  t.ok(findGroup(kit.deps.scheduler.root(), '/relative'));
});

t.test('PUT replaces the listed apps; subgroups stay unless groups is given (fact 70)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a'), appBody('b')], groups: [{ id: 'sub' }, { id: 'other' }] });
  kit.settle();
  const put = await kit.request('PUT', '/v2/groups/g', { id: '/g', apps: [appBody('a'), appBody('c')] });
  t.equal(put.statusCode, 200);
  t.equal(put.headers['marathon-deployment-id'], obj(put.json).deploymentId);
  let g = findGroup(kit.deps.scheduler.root(), '/g');
  t.same([...(g?.apps.keys() ?? [])], ['/g/a', '/g/c'], 'b is removed, c added');
  t.same([...(g?.groups.keys() ?? [])], ['/g/other', '/g/sub'], 'subgroups kept');
  await kit.request('PUT', '/v2/groups/g', { groups: [{ id: 'sub' }] });
  g = findGroup(kit.deps.scheduler.root(), '/g');
  t.same([...(g?.groups.keys() ?? [])], ['/g/sub'], 'unlisted subgroup removed');
  t.same([...(g?.apps.keys() ?? [])], ['/g/a', '/g/c'], 'apps kept when not listed');
});

t.test('PUT on a group that does not exist creates it (200)', async (t) => {
  const kit = groupKit(t);
  const res = await kit.request('PUT', '/v2/groups/new/deep', { apps: [appBody('x')] });
  t.equal(res.statusCode, 200);
  t.ok(findRunSpec(kit.deps.scheduler.root(), '/new/deep/x'));
});

t.test('PUT /v2/groups/g whose body names another group changes that group, as Marathon\'s effectivePath', async (t) => {
  // GroupsResource.update: the body's id, resolved against the URL's group, is the group changed;
  // Marathon answers 200 and leaves the URL's group as it was.
  const kit = groupKit(t);
  t.equal((await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('/g/a')] })).statusCode, 201);
  t.equal((await kit.request('PUT', '/v2/groups/g', { id: '/other', apps: [appBody('/other/b')] })).statusCode, 200);
  t.equal((await kit.request('PUT', '/v2/groups/g', { id: 'sub', apps: [appBody('c')] })).statusCode, 200);
  const root = kit.deps.scheduler.root();
  t.ok(findRunSpec(root, '/g/a'), 'the URL\'s group keeps its app');
  t.ok(findRunSpec(root, '/other/b'), 'an absolute id names the group changed');
  t.ok(findRunSpec(root, '/g/sub/c'), 'a relative id resolves against the URL\'s group');
});

t.test('re-PUTting identical apps restarts nothing and leaves no deployment running (facts 46, 70)', async (t) => {
  const kit = groupKit(t);
  const body = { id: '/g', apps: [appBody('a', { instances: 2 })] };
  await kit.request('POST', '/v2/groups', body);
  kit.settle();
  const before = kit.deps.scheduler.instances('/g/a').map((i) => i.instanceId);
  const versionBefore = findRunSpec(kit.deps.scheduler.root(), '/g/a')?.version;
  kit.harness.advance(5000);
  const again = await kit.request('PUT', '/v2/groups/g', body);
  t.equal(again.statusCode, 200);
  t.same((await kit.request('GET', '/v2/deployments')).json, [], 'the zero-step deployment finished at once');
  t.same(kit.deps.scheduler.instances('/g/a').map((i) => i.instanceId), before, 'same instances');
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/g/a')?.version, versionBefore, 'app version unchanged');
  const changed = await kit.request('PUT', '/v2/groups/g', { id: '/g', apps: [appBody('a', { instances: 2, cmd: 'sleep 5' })] });
  t.equal(changed.statusCode, 200);
  t.not(findRunSpec(kit.deps.scheduler.root(), '/g/a')?.version, versionBefore, 'a config change gets a new version');
});

t.test('pods are read-only here: a body\'s pods are ignored, existing pods are kept (spec rule 5, fact 70)', async (t) => {
  const kit = groupKit(t);
  t.equal(kit.harness.put(makePod({ id: '/g/p' })).ok, true);
  const res = await kit.request('PUT', '/v2/groups/g', {
    apps: [appBody('a')],
    pods: [{ id: '/g/other', containers: [{ name: 'c', resources: { cpus: 0.1, mem: 32 } }] }],
  });
  t.equal(res.statusCode, 200);
  const g = findGroup(kit.deps.scheduler.root(), '/g');
  t.same([...(g?.pods.keys() ?? [])], ['/g/p']);
  t.same([...(g?.apps.keys() ?? [])], ['/g/a']);
});

t.test('PUT /v2/groups with an "id" of "/" and groups replaces the top level', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/a' });
  await kit.request('POST', '/v2/groups', { id: '/b' });
  const res = await kit.request('PUT', '/v2/groups', { id: '/', groups: [{ id: 'b' }, { id: 'c' }] });
  t.equal(res.statusCode, 200);
  t.same([...kit.deps.scheduler.root().groups.keys()], ['/b', '/c']);
});

t.test('DELETE /v2/groups/{id}: 200 + deployment; unknown → 404 without details (fact 75)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')] });
  t.equal(kit.harness.put(makePod({ id: '/g/p', instances: 0 })).ok, true);
  kit.settle();
  const res = await kit.request('DELETE', '/v2/groups/g');
  t.equal(res.statusCode, 200);
  t.equal(res.headers['marathon-deployment-id'], obj(res.json).deploymentId);
  t.notOk(findGroup(kit.deps.scheduler.root(), '/g'), 'gone with its pods');
  const missing = await kit.request('DELETE', '/v2/groups/g');
  t.equal(missing.statusCode, 404);
  t.same(missing.json, { message: "Group '/g' does not exist" });
});

t.test('DELETE /v2/groups removes everything', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/a', apps: [appBody('x')] });
  await kit.request('POST', '/v2/groups', { id: '/b' });
  const res = await kit.request('DELETE', '/v2/groups?force=true');
  t.equal(res.statusCode, 200);
  t.same(kit.deps.scheduler.root().groups.size, 0);
  t.same(obj((await kit.request('GET', '/v2/groups')).json).groups, []);
});

t.test('two changes in one millisecond still get distinct root versions', async (t) => {
  const kit = groupKit(t);
  const a = obj((await kit.request('POST', '/v2/groups', { id: '/a' })).json);
  const b = obj((await kit.request('POST', '/v2/groups', { id: '/b' })).json);
  t.ok(String(b.version) > String(a.version));
});
