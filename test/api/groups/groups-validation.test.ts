import t from 'tap';
import { appBody, groupKit, obj } from './group-test-kit';

interface ErrorRow {
  readonly name: string;
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly body: unknown;
  readonly status: number;
  readonly json: unknown;
}

const invalid = (details: unknown): unknown => ({ message: 'Invalid JSON', details });
const notValid = (details: unknown): unknown => ({ message: 'Object is not valid', details });

const rows: ErrorRow[] = [
  { name: 'apps not an array', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: 3 }, status: 422, json: invalid([{ path: '/apps', errors: ['error.expected.jsarray'] }]) },
  { name: 'wrong field types', method: 'PUT', url: '/v2/groups/g', body: { id: 7, enforceRole: 'x', dependencies: ['/a', 1] }, status: 422, json: invalid([
    { path: '/id', errors: ['error.expected.jsstring'] },
    { path: '/dependencies(1)', errors: ['error.expected.jsstring'] },
    { path: '/enforceRole', errors: ['error.expected.jsboolean'] },
  ]) },
  { name: 'negative scaleBy', method: 'PUT', url: '/v2/groups/g', body: { scaleBy: -1 }, status: 422, json: invalid([{ path: '/scaleBy', errors: ['error.min'] }]) },
  { name: 'version not a date', method: 'PUT', url: '/v2/groups/g', body: { version: 'yesterday' }, status: 422, json: invalid([{ path: '/version', errors: ['error.expected.date.isoformat'] }]) },
  { name: 'nested group without id', method: 'POST', url: '/v2/groups', body: { id: '/g', groups: [{ apps: [] }] }, status: 422, json: invalid([{ path: '/groups(0)/id', errors: ['error.path.missing'] }]) },
  { name: 'a nested app\'s shape error is reported at its position', method: 'POST', url: '/v2/groups', body: { id: '/g', groups: [{ id: 'x', apps: [appBody('a', { instances: 'two' })] }] }, status: 422, json: invalid([{ path: '/groups(0)/apps(0)/instances', errors: ['error.expected.jsnumber'] }]) },
  { name: 'an app that is not an object', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: ['a'] }, status: 422, json: invalid([{ path: '/apps(0)', errors: ['error.expected.jsobject'] }]) },
  { name: 'an app outside its group', method: 'POST', url: '/v2/groups/foo', body: { id: 'sub', apps: [appBody('lol/bibi')] }, status: 422, json: notValid([{ path: '/apps(0)/id', errors: ["Identifier is not child of '/foo/sub'"] }]) },
  { name: 'an app with an absolute id elsewhere', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: [appBody('/other/a')] }, status: 422, json: notValid([{ path: '/apps(0)/id', errors: ["Identifier is not child of '/g'"] }]) },
  { name: 'a nested group outside its parent', method: 'POST', url: '/v2/groups', body: { id: '/g', groups: [{ id: 'a/b' }] }, status: 422, json: notValid([{ path: '/groups(0)/id', errors: ["Identifier is not child of '/g'"] }]) },
  { name: 'an app without cmd (semantic errors keep the app\'s own paths)', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: [{ id: 'a' }] }, status: 422, json: notValid([{ path: '/', errors: ["AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'."] }]) },
  // GroupUpdate.id is the RAML's strings.PathId, read as apps' and pods' ids are (issue 11.5).
  { name: 'an invalid group id', method: 'POST', url: '/v2/groups', body: { id: '/Bad_Id' }, status: 422, json: invalid([{ path: '/id', errors: ['error.pattern'] }]) },
  { name: 'an invalid nested group id', method: 'POST', url: '/v2/groups', body: { id: '/g', groups: [{ id: 'Bad' }] }, status: 422, json: invalid([{ path: '/groups(0)/id', errors: ['error.pattern'] }]) },
  { name: 'an invalid dependency', method: 'POST', url: '/v2/groups', body: { id: '/g', dependencies: ['/x', 'a_b'] }, status: 422, json: invalid([{ path: '/dependencies(1)', errors: ['error.pattern'] }]) },
  { name: 'a . segment', method: 'POST', url: '/v2/groups', body: { id: '/a/./b' }, status: 422, json: invalid([{ path: '/id', errors: ['error.pattern'] }]) },
  { name: 'a .. segment in an absolute id (Marathon\'s childOf)', method: 'POST', url: '/v2/groups', body: { id: '/a/../b' }, status: 422, json: notValid([{ path: '/id', errors: ["Identifier is not child of '/a/..'"] }]) },
  { name: 'a reserved last segment', method: 'POST', url: '/v2/groups', body: { id: '/g/versions' }, status: 422, json: notValid([{ path: '/id', errors: ['must not end with any of the following reserved keywords: restart, tasks, versions, ., ..'] }]) },
  { name: 'scaleBy with another field', method: 'PUT', url: '/v2/groups/g', body: { id: '/g', scaleBy: 2 }, status: 422, json: notValid([{ path: '/scaleBy', errors: ['not allowed in conjunction with other properties.'] }]) },
  { name: 'version and scaleBy together', method: 'PUT', url: '/v2/groups/g', body: { scaleBy: 2, version: '2026-01-01T00:00:00.000Z' }, status: 422, json: notValid([
    { path: '/version', errors: ['not allowed in conjunction with other properties.'] },
    { path: '/scaleBy', errors: ['not allowed in conjunction with other properties.'] },
  ]) },
  { name: 'scaleBy in a nested group', method: 'PUT', url: '/v2/groups/g', body: { groups: [{ id: 'x', scaleBy: 2 }] }, status: 422, json: notValid([{ path: '/groups(0)/scaleBy', errors: ['not allowed in conjunction with other properties.'] }]) },
  { name: 'dependency cycle (fact 74)', method: 'POST', url: '/v2/groups', body: { id: '/c', apps: [appBody('a', { dependencies: ['b'] }), appBody('b', { dependencies: ['a'] })] }, status: 422, json: notValid([{ path: '/', errors: ['Dependency graph has cyclic dependencies.'] }]) },
  { name: 'a group depending on its own app is a cycle too', method: 'POST', url: '/v2/groups', body: { id: '/c', dependencies: ['/c/a'], apps: [appBody('a')] }, status: 422, json: notValid([{ path: '/', errors: ['Dependency graph has cyclic dependencies.'] }]) },
  { name: 'a group where an app is (fact 76)', method: 'PUT', url: '/v2/groups/g', body: { apps: [appBody('x')], groups: [{ id: 'x' }] }, status: 422, json: notValid([{ path: '/', errors: ['Groups and Applications may not have the same identifier.'] }]) },
];

t.test('validation errors of group bodies (facts 3, 4, 73–76)', async (t) => {
  for (const row of rows) {
    const kit = groupKit(t);
    const res = await kit.request(row.method, row.url, row.body);
    t.equal(res.statusCode, row.status, `${row.name}: status`);
    t.same(res.json, row.json, `${row.name}: body`);
    t.same(kit.deps.scheduler.root().groups.size, 0, `${row.name}: nothing changed`);
  }
});

t.test('empty and broken bodies (facts 5, 6)', async (t) => {
  const kit = groupKit(t);
  const empty = await kit.app.inject({ method: 'POST', url: '/v2/groups', headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 400);
  t.equal(obj(JSON.parse(empty.body)).message, 'Please specify data in JSON format');
  const broken = await kit.request('PUT', '/v2/groups/g', '{"id":"/g"');
  t.equal(broken.statusCode, 400);
  t.equal(obj(broken.json).message, 'Invalid JSON');
  const notObject = await kit.request('PUT', '/v2/groups/g', '[]');
  t.equal(notObject.statusCode, 422);
  t.same(notObject.json, invalid([{ path: '/', errors: ['error.expected.jsobject'] }]));
});

t.test('a group below an app: 422 (fact 76)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')] });
  const nested = await kit.request('POST', '/v2/groups', { id: '/g/a/b' });
  t.equal(nested.statusCode, 422);
  t.same(nested.json, notValid([{ path: '/', errors: ['Groups and Applications may not have the same identifier.'] }]));
});
