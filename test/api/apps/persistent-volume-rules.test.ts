import t from 'tap';
import { makeApi } from '../api-fixture';
import { runSpecFromRecord } from '../../../src/store/run-spec-record';

/*
 * Marathon's rules for an app's persistent volume (AppValidation.validPersistentVolume): the
 * containerPath is one relative segment (not `.`, `..`, nothing with `/`), the mode is RW, the size
 * is above 0, only a mount volume has a maxSize, above its size, and a root volume has no
 * constraints. A containerPath of `.` was accepted, and its first launch on the local cluster
 * stopped pacer (`rm returned EISDIR` linking the volume over the sandbox). Each is a 422 at
 * Marathon's path, and nothing is stored. A record stored before these rules still loads (it is
 * not set aside, with every root version holding it): the rules are the API's, not the store's.
 */

const volume = (over: Record<string, unknown>, persistent: Record<string, unknown> = { size: 1 }) => ({
  id: '/db/a', role: 'db', cmd: 'sleep 1000', cpus: 0.01, mem: 16, instances: 1,
  container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent, ...over }] },
});

const cases: readonly { name: string; body: object; path: string; error: string }[] = [
  { name: 'containerPath .', body: volume({ containerPath: '.' }), path: '/container/volumes(0)/containerPath', error: 'must not be one of (., ..)' },
  { name: 'containerPath ..', body: volume({ containerPath: '..' }), path: '/container/volumes(0)/containerPath', error: 'must not be one of (., ..)' },
  { name: 'containerPath ./', body: volume({ containerPath: './' }), path: '/container/volumes(0)/containerPath', error: 'value must not contain "/"' },
  { name: 'containerPath a/b', body: volume({ containerPath: 'a/b' }), path: '/container/volumes(0)/containerPath', error: 'value must not contain "/"' },
  { name: 'mode RO', body: volume({ mode: 'RO' }), path: '/container/volumes(0)/mode', error: 'got RO, expected RW: a persistent volume is read-write' },
  { name: 'size 0', body: volume({}, { size: 0 }), path: '/container/volumes(0)/persistent/size', error: 'got 0, expected more than 0' },
  { name: 'maxSize on a root volume', body: volume({}, { size: 1, maxSize: 2 }), path: '/container/volumes(0)/persistent/maxSize', error: 'Only mount volumes can have maxSize' },
  { name: 'maxSize not above size', body: volume({}, { type: 'mount', size: 2, maxSize: 2 }), path: '/container/volumes(0)/persistent/maxSize', error: 'Max size must be larger than size' },
  { name: 'constraints on a root volume', body: volume({}, { size: 1, constraints: [['path', 'LIKE', 'x']] }), path: '/container/volumes(0)/persistent/constraints', error: 'Constraints on root volumes are not supported' },
];

for (const c of cases) {
  t.test(`a persistent volume with ${c.name} is 422, nothing stored`, async (t) => {
    const fx = makeApi();
    t.teardown(() => fx.app.close());
    for (const [method, url] of [['POST', '/v2/apps'], ['PUT', '/v2/apps/db/a'], ['PUT', '/v2/apps']] as const) {
      const bulk = url === '/v2/apps' && method === 'PUT';
      const res = await fx.app.inject({ method, url, payload: bulk ? [c.body] : c.body });
      t.equal(res.statusCode, 422, `${method} ${url}: ${res.body}`);
      const path = bulk ? `/(0)${c.path}` : c.path;
      t.strictSame(res.json(), { message: 'Object is not valid', details: [{ path, errors: [c.error] }] }, `${method} ${url}`);
    }
    t.equal((await fx.app.inject({ method: 'GET', url: '/v2/apps/db/a' })).statusCode, 404, 'nothing stored');
  });
}

t.test('a persistent volume at one relative segment is accepted', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: volume({ containerPath: 'data' }, { type: 'mount', size: 1, maxSize: 2 }) });
  t.equal(res.statusCode, 201, res.body);
});

t.test('a stored app whose persistent volume breaks these rules still loads', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: volume({}) });
  t.equal(res.statusCode, 201, res.body);
  const stored = res.json() as Record<string, unknown>;
  for (const c of cases) {
    const body = c.body as { container: { volumes: Record<string, unknown>[] } };
    const app = { ...stored, container: { ...(stored.container as object), volumes: body.container.volumes } };
    const loaded = runSpecFromRecord({ kind: 'app', app });
    t.ok(loaded.ok, `${c.name}: ${JSON.stringify(loaded)}`);
  }
});
