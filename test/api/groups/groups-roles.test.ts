import t from 'tap';
import { findGroup, findRunSpec } from '../../../src/scheduler/groups/tree-query';
import { appBody, groupKit, obj } from './group-test-kit';

t.test('PATCH enforceRole on a top-level group: 200, empty body, no deployment left (fact 72)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/dev' });
  const versionBefore = kit.deps.scheduler.root().version;
  const res = await kit.request('PATCH', '/v2/groups/dev', { enforceRole: true });
  t.equal(res.statusCode, 200);
  t.equal(res.body, '');
  t.equal(findGroup(kit.deps.scheduler.root(), '/dev')?.enforceRole, true);
  t.equal(kit.deps.scheduler.root().version, versionBefore, 'the root keeps its version');
  t.same((await kit.request('GET', '/v2/deployments')).json, []);
  t.match((await kit.request('GET', '/v2/groups/dev')).json, { id: '/dev', enforceRole: true });
  t.equal((await kit.request('PATCH', '/v2/groups/dev', { enforceRole: true })).statusCode, 200, 'unchanged is fine');
  t.equal((await kit.request('PATCH', '/v2/groups/dev', {})).statusCode, 200);
  t.equal(findGroup(kit.deps.scheduler.root(), '/dev')?.enforceRole, false, 'left out: the --new_group_enforce_role default (off)');
});

t.test('PATCH errors: deeper group → 422 Path needs to be top-level; unknown → 404; bad body → 422/400', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/dev/sub' });
  const table: { url: string; body: unknown; status: number; json: unknown }[] = [
    { url: '/v2/groups/dev/sub', body: { enforceRole: true }, status: 422, json: { message: 'Object is not valid', details: [{ path: '/', errors: ['Path needs to be top-level'] }] } },
    { url: '/v2/groups/nope', body: { enforceRole: true }, status: 404, json: { message: "Group '/nope' does not exist", details: [] } },
    { url: '/v2/groups/dev', body: { enforceRole: 'yes' }, status: 422, json: { message: 'Invalid JSON', details: [{ path: '/enforceRole', errors: ['error.expected.jsboolean'] }] } },
    { url: '/v2/groups/dev', body: '[1]', status: 422, json: { message: 'Invalid JSON', details: [{ path: '/', errors: ['error.expected.jsobject'] }] } },
  ];
  for (const row of table) {
    const res = await kit.request('PATCH', row.url, row.body);
    t.equal(res.statusCode, row.status, row.url);
    t.same(res.json, row.json, row.url);
  }
  const empty = await kit.app.inject({ method: 'PATCH', url: '/v2/groups/dev', headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 400);
});

t.test('enforceRole: apps below default to the group role; other roles are rejected at /role (spec 2.7, fact 111)', async (t) => {
  const kit = groupKit(t);
  const created = await kit.request('POST', '/v2/groups', { id: '/dev', enforceRole: true, groups: [{ id: 'sleep', apps: [appBody('a')] }] });
  t.equal(created.statusCode, 201);
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/dev/sleep/a')?.role, 'dev');
  const star = await kit.request('PUT', '/v2/groups/dev/sleep', { apps: [appBody('a'), appBody('b', { role: '*' })] });
  t.equal(star.statusCode, 422);
  t.same(star.json, { message: 'Object is not valid', details: [{ path: '/role', errors: ['got *, expected one of: [dev]'] }] });
});

t.test('without enforcement the default role and the group role are allowed, others rejected (facts 109, 110)', async (t) => {
  const kit = groupKit(t);
  const table: { id: string; role?: string; status: number; stored?: string; error?: string }[] = [
    { id: '/dev/a', status: 201, stored: '*' },
    { id: '/dev2/b', role: 'dev2', status: 201, stored: 'dev2' },
    { id: '/dev3/c', role: 'foo', status: 422, error: 'got foo, expected one of: [*, dev3]' },
  ];
  for (const row of table) {
    const groupId = row.id.slice(0, row.id.lastIndexOf('/'));
    const res = await kit.request('POST', '/v2/groups', { id: groupId, apps: [appBody(row.id, row.role === undefined ? {} : { role: row.role })] });
    t.equal(res.statusCode, row.status, row.id);
    if (row.stored !== undefined) t.equal(findRunSpec(kit.deps.scheduler.root(), row.id)?.role, row.stored);
    if (row.error !== undefined) t.same(res.json, { message: 'Object is not valid', details: [{ path: '/role', errors: [row.error] }] });
  }
  const rootApp = await kit.request('PUT', '/v2/groups', { apps: [appBody('/x', { role: 'foo' })] });
  t.equal(rootApp.statusCode, 422);
  t.same(rootApp.json, { message: 'Object is not valid', details: [{ path: '/role', errors: ['got foo, expected one of: [*]'] }] });
});

t.test('an existing app keeps being accepted with its old role after enforcement is switched on (fact 111)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/dev', apps: [appBody('a')] });
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/dev/a')?.role, '*');
  kit.settle();
  t.equal((await kit.request('PATCH', '/v2/groups/dev', { enforceRole: true })).statusCode, 200);
  const keep = await kit.request('PUT', '/v2/groups/dev', { apps: [appBody('a', { role: '*' }), appBody('b')] });
  t.equal(keep.statusCode, 200, 'the old role stays acceptable; enforceRole left out keeps its value');
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/dev/b')?.role, 'dev', 'a new app gets the group role');
  t.equal(findGroup(kit.deps.scheduler.root(), '/dev')?.enforceRole, true);
});

t.test('enforceRole rules of a group update (fact 73)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/dev', apps: [appBody('a')] });
  const withApps = await kit.request('PUT', '/v2/groups/dev', { enforceRole: true, apps: [appBody('a')] });
  t.equal(withApps.statusCode, 422);
  t.same(withApps.json, {
    message: 'Object is not valid',
    details: [{ path: '/enforceRole', errors: ['enforceRole cannot be modified in a request that adds, removes or modifies services; please make these changes in separate requests.'] }],
  });
  const unrelated = await kit.request('PUT', '/v2/groups', { groups: [{ id: 'other', apps: [appBody('x')] }, { id: '/dev', enforceRole: true }] });
  t.equal(unrelated.statusCode, 422);
  t.match(obj(unrelated.json).details, [{ path: '/groups(1)/enforceRole' }]);
  const deeper = await kit.request('PUT', '/v2/groups/dev/sub', { enforceRole: true });
  t.equal(deeper.statusCode, 422);
  t.same(deeper.json, { message: 'Object is not valid', details: [{ path: '/enforceRole', errors: ['enforceRole can only be set for top-level groups, and /dev/sub is not top-level'] }] });
  const alone = await kit.request('PUT', '/v2/groups/dev', { enforceRole: true });
  t.equal(alone.statusCode, 200, 'enforceRole alone may change');
  t.equal(findGroup(kit.deps.scheduler.root(), '/dev')?.enforceRole, true);
  const newGroup = await kit.request('POST', '/v2/groups', { id: '/prod', enforceRole: true, apps: [appBody('a', { role: 'prod' })] });
  t.equal(newGroup.statusCode, 201, 'a new group may be created enforcing, with apps');
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/prod/a')?.role, 'prod');
});

t.test('--new_group_enforce_role top: new top-level groups enforce by default (spec 2.7 rule 5)', async (t) => {
  const kit = groupKit(t, { config: { newGroupEnforceRole: 'top' } });
  t.equal((await kit.request('POST', '/v2/groups', { id: '/dev', groups: [{ id: 'x', apps: [appBody('a')] }] })).statusCode, 201);
  t.equal(findGroup(kit.deps.scheduler.root(), '/dev')?.enforceRole, true);
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/dev/x/a')?.role, 'dev');
  t.equal((await kit.request('POST', '/v2/groups', { id: '/pub', enforceRole: false, apps: [appBody('a')] })).statusCode, 201);
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/pub/a')?.role, '*');
});
