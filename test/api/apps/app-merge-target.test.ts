import t from 'tap';
import { mergeAppUpdate } from '../../../src/api/v2/apps/app-merge';
import { type AppTargetKind, parseAppTarget } from '../../../src/api/v2/apps/app-target';

const STORED = {
  id: '/foo', cmd: 'x', instances: 2, labels: { a: 'b' }, version: 'v', versionInfo: { lastScalingAt: 'v', lastConfigChangeAt: 'v' },
  networks: [{ mode: 'host' }], portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default' }],
  fetch: [{ uri: 'http://a' }], container: { type: 'MESOS', portMappings: [{ containerPort: 80 }], volumes: [] },
};

t.test('a partial update replaces the fields it gives and keeps the others (fact 41)', async (t) => {
  const merged = mergeAppUpdate(STORED, { id: '/other', instances: 5, labels: { c: 'd' }, cmd: null, version: 'w' });
  t.match(merged, { cmd: 'x', instances: 5, labels: { c: 'd' } });
  t.notOk('id' in merged || 'version' in merged || 'versionInfo' in merged, 'ids and versions are not merged');
  t.strictSame(merged.portDefinitions, STORED.portDefinitions);
});

t.test('stored fields that contradict the update are dropped', async (t) => {
  const cases: [string, Record<string, unknown>, string[], string[]][] = [
    ['container networks drop port definitions', { networks: [{ mode: 'container', name: 'n' }] }, ['networks'], ['portDefinitions']],
    ['container networks with port definitions keep them', { networks: [{ name: 'n' }], portDefinitions: [] }, ['portDefinitions'], []],
    ['deprecated ports replace port definitions', { ports: [0, 0] }, ['ports'], ['portDefinitions']],
    ['deprecated uris replace fetch', { uris: ['http://b'] }, ['uris'], ['fetch']],
    ['legacy docker network drops networks', { container: { docker: { image: 'i', network: 'BRIDGE' } } }, ['container'], ['networks']],
  ];
  for (const [name, update, present, absent] of cases) {
    const merged = mergeAppUpdate(STORED, update);
    for (const key of present) t.ok(key in merged, `${name}: ${key}`);
    for (const key of absent) t.notOk(key in merged, `${name}: no ${key}`);
  }
  const host = mergeAppUpdate(STORED, { networks: [{ mode: 'host' }] });
  t.strictSame(host.container, { type: 'MESOS', volumes: [] }, 'host networks drop stored port mappings');
  t.strictSame(mergeAppUpdate(STORED, { networks: [] }).portDefinitions, STORED.portDefinitions, 'no networks means host');
});

const ALL = new Set<AppTargetKind>(['groupApps', 'tasks', 'groupTasks', 'task', 'versions', 'version', 'restart']);

t.test('paths below /v2/apps/ name an app and a sub-resource', async (t) => {
  const none = (): boolean => false;
  const cases: [string, unknown][] = [
    ['foo', { kind: 'app', appId: '/foo' }],
    ['prod//web/', { kind: 'app', appId: '/prod/web' }],
    ['', { kind: 'app', appId: '/' }],
    ['prod/*', { kind: 'groupApps', groupId: '/prod' }],
    ['*', { kind: 'groupApps', groupId: '/' }],
    ['prod/web/tasks', { kind: 'tasks', appId: '/prod/web' }],
    ['prod/*/tasks', { kind: 'groupTasks', groupId: '/prod' }],
    ['prod/web/tasks/web.instance-1._app.1', { kind: 'task', appId: '/prod/web', taskId: 'web.instance-1._app.1' }],
    ['prod/web/versions', { kind: 'versions', appId: '/prod/web' }],
    ['prod/web/versions/2026-01-01T00:00:00.000Z', { kind: 'version', appId: '/prod/web', version: '2026-01-01T00:00:00.000Z' }],
    ['prod/web/restart', { kind: 'restart', appId: '/prod/web' }],
  ];
  for (const [rest, expected] of cases) t.strictSame(parseAppTarget(rest, ALL, none), expected, rest);
});

t.test('only the sub-resources of the method count; an existing app keeps its URL', async (t) => {
  t.strictSame(parseAppTarget('foo/restart', new Set(['tasks']), () => false), { kind: 'app', appId: '/foo/restart' });
  t.strictSame(parseAppTarget('a/versions/b', ALL, (id) => id === '/a/versions/b'), { kind: 'app', appId: '/a/versions/b' });
  t.strictSame(parseAppTarget('a/versions/b', ALL, () => false), { kind: 'version', appId: '/a', version: 'b' });
});
