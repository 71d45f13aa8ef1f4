import t from 'tap';
import { app, behaviour, MARATHON, pacer, TIMESTAMP, UUID } from './conformance-kit';

// Groups (marathon-api-facts.md section F).

t.test(behaviour('POST /v2/groups → 201, Location, Marathon-Deployment-Id, {version, deploymentId}; relative app ids resolve (facts 65, 66)', MARATHON.groups), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/groups', { id: '/g', apps: [app('a', { instances: 2 })] });
  t.equal(res.status, 201);
  t.match(res.headers.get('location'), /\/g$/);
  t.match(res.headers.get('marathon-deployment-id'), UUID);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/g/a')).json.app.instances, 2, 'the app became /g/a');
  const again = await p.call('POST', '/v2/groups', { id: '/g' });
  t.equal(again.status, 409);
  t.same(again.json, { message: 'Group /g is already created. Use PUT to change this group.' });
});

t.test(behaviour('GET /v2/groups: the root GroupInfo, lists always written, enforceRole on top-level groups only (fact 67)', MARATHON.groupInfo), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/groups', { id: '/g/sub', apps: [app('a')] })).status, 201);
  const root = (await p.call('GET', '/v2/groups')).json;
  t.same(Object.keys(root).sort(), ['apps', 'dependencies', 'groups', 'id', 'pods', 'version'], 'the root has no enforceRole');
  t.match(root, { id: '/', apps: [], pods: [], dependencies: [], version: TIMESTAMP });
  const [top] = root.groups;
  t.equal(top.enforceRole, false, 'a top-level group has it');
  t.notOk('enforceRole' in top.groups[0], 'a deeper group does not');
  t.match(top.groups[0].apps, [{ id: '/g/sub/a' }]);
  t.notOk('tasksRunning' in top.groups[0].apps[0], 'no counts unless embedded');
  const missing = await p.call('GET', '/v2/groups/nope');
  t.equal(missing.status, 404);
  t.same(missing.json, { message: "Group '/nope' does not exist", details: [] });
});

t.test(behaviour('PUT /v2/groups/{id} {"scaleBy": n} → 200; every app below gets ceil(instances × n) (fact 71)', MARATHON.groupApi), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/groups', { id: '/g', apps: [app('a', { instances: 1 }), app('b', { instances: 3 })] })).status, 201);
  p.runAll();
  p.server.harness.advance(1000);
  const res = await p.call('PUT', '/v2/groups/g', { scaleBy: 1.5 });
  t.equal(res.status, 200);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/g/a')).json.app.instances, 2);
  t.equal((await p.call('GET', '/v2/apps/g/b')).json.app.instances, 5);
});

t.test(behaviour('DELETE /v2/groups/{id} without a body → 200 {version, deploymentId}; unknown → 404 without details (fact 75)', MARATHON.groups), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/groups', { id: '/g', apps: [app('a')] })).status, 201);
  p.runAll();
  const res = await p.call('DELETE', '/v2/groups/g');
  t.equal(res.status, 200);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/g/a')).status, 404);
  const missing = await p.call('DELETE', '/v2/groups/g');
  t.equal(missing.status, 404);
  t.same(missing.json, { message: "Group '/g' does not exist" });
});

t.test(behaviour('GET /v2/groups/{id}/versions → a bare array of timestamps (fact 69)', MARATHON.groups), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/groups', { id: '/g' });
  const versions = (await p.call('GET', '/v2/groups/g/versions')).json;
  t.ok(Array.isArray(versions) && versions.includes(created.json.version), JSON.stringify(versions));
});
