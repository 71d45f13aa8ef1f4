import t from 'tap';
import { apiFor, appBody, call, created, type Json, running, tick } from './apps-kit';

const V0 = '2026-01-01T00:00:00.000Z';
const V1 = '2026-01-01T00:00:01.000Z';

t.test('a fresh app has exactly one version, the create response version (fact 51)', async (t) => {
  const fx = apiFor(t);
  const res = await created(t, fx, appBody());
  const versions = await call(fx, 'GET', '/v2/apps/foo/versions');
  t.equal(versions.status, 200);
  t.strictSame(versions.json, { versions: [res.json.version] });
});

t.test('every change adds a version; each version reads back as that definition, not wrapped (fact 51)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ cmd: 'one' }));
  tick(fx);
  await call(fx, 'PUT', '/v2/apps/foo', { cmd: 'two' });
  const list = (await call(fx, 'GET', '/v2/apps/foo/versions')).json.versions as string[];
  t.strictSame([...list].sort(), [V0, V1]);
  const old = await call(fx, 'GET', `/v2/apps/foo/versions/${V0}`);
  t.equal(old.status, 200);
  t.match(old.json, { id: '/foo', cmd: 'one', version: V0 });
  t.notOk('app' in old.json || 'tasks' in old.json || 'tasksRunning' in old.json, 'the bare definition');
  t.equal(((await call(fx, 'GET', `/v2/apps/foo/versions/${V1}`)).json as Json).cmd, 'two');
  t.equal(((await call(fx, 'GET', '/v2/apps/foo/versions/2026-01-01T00:00:00Z')).json as Json).cmd, 'one',
    'a timestamp without milliseconds names the same version');
});

t.test('versions of unknown apps and unknown versions → 404 with details (fact 51)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  const cases: [string, string][] = [
    ['/v2/apps/nope/versions', "App '/nope' does not exist"],
    [`/v2/apps/nope/versions/${V0}`, "App '/nope' does not exist"],
    ['/v2/apps/foo/versions/2020-01-01T00:00:00.000Z', "App '/foo' does not exist in version 2020-01-01T00:00:00.000Z"],
    ['/v2/apps/foo/versions/yesterday', "App '/foo' does not exist in version yesterday"],
  ];
  for (const [url, message] of cases) {
    const res = await call(fx, 'GET', url);
    t.equal(res.status, 404, url);
    t.strictSame(res.json, { message, details: [] }, url);
  }
});
