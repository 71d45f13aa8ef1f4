import t from 'tap';
import { apiFor, appBody, call, created, type Json, running, runningDeploymentIds, tick } from './apps-kit';

const V0 = '2026-01-01T00:00:00.000Z';
const V1 = '2026-01-01T00:00:01.000Z';

async function getApp(fx: ReturnType<typeof apiFor>, id: string): Promise<Json> {
  return (await call(fx, 'GET', `/v2/apps${id}`)).json.app as Json;
}

t.test('PUT with a partial body keeps every field not mentioned (fact 41); a scale keeps lastConfigChangeAt', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ labels: { tier: 'web' } }));
  tick(fx);
  const res = await call(fx, 'PUT', '/v2/apps/foo', { instances: 3 });
  t.equal(res.status, 200);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], res.json.deploymentId);
  t.equal(res.json.version, V1);
  const app = await getApp(fx, '/foo');
  t.match(app, { instances: 3, cmd: 'sleep 100', labels: { tier: 'web' }, version: V1 });
  t.strictSame(app.versionInfo, { lastConfigChangeAt: V0, lastScalingAt: V1 });
  const [d] = fx.deps.scheduler.deployments();
  t.strictSame(d.deployment.plan.steps.map((s) => s.actions.map((a) => a.action)), [['ScaleApplication']], 'a scale-only change (fact 47)');
});

t.test('PUT ?partialUpdate=false replaces the app: fields left out go back to their defaults (fact 42)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ labels: { tier: 'web' }, instances: 2, backoffSeconds: 5 }));
  tick(fx);
  const res = await call(fx, 'PUT', '/v2/apps/foo?partialUpdate=false', { cmd: 'sleep 5', cpus: 0.1, mem: 32 });
  t.equal(res.status, 200, res.text);
  const app = await getApp(fx, '/foo');
  t.match(app, { cmd: 'sleep 5', instances: 1, backoffSeconds: 1, labels: {} });
  t.strictSame(app.versionInfo, { lastConfigChangeAt: V1, lastScalingAt: V1 });
});

t.test('PUT of a missing app creates it → 201, Location, {version, deploymentId}; the URL id wins (fact 43)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'PUT', '/v2/apps/prod/new', appBody({ id: '/elsewhere' }));
  t.equal(res.status, 201, res.text);
  t.match(String(res.headers.location), /\/prod\/new$/);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], res.json.deploymentId);
  t.equal((await call(fx, 'GET', '/v2/apps/prod/new')).status, 200);
  t.equal((await call(fx, 'GET', '/v2/apps/elsewhere')).status, 404);
});

t.test('PUT or PATCH {"instances":2} on a missing app → 422: validated as a complete app first (fact 44)', async (t) => {
  const fx = apiFor(t);
  for (const method of ['PUT', 'PATCH'] as const) {
    const res = await call(fx, method, '/v2/apps/ghost', { instances: 2 });
    t.equal(res.status, 422, method);
    t.match(res.json, { message: 'Object is not valid', details: [{ path: '/' }] }, method);
  }
});

t.test('PATCH updates (200) and never creates: a missing app → 404 without details (fact 44)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  tick(fx);
  const res = await call(fx, 'PATCH', '/v2/apps/foo', { cmd: 'sleep 5' });
  t.equal(res.status, 200);
  t.type(res.json.deploymentId, 'string');
  t.equal((await getApp(fx, '/foo')).cmd, 'sleep 5');
  const [d] = fx.deps.scheduler.deployments();
  t.strictSame(d.deployment.plan.steps.map((s) => s.actions.map((a) => a.action)), [['RestartApplication']], 'a config change restarts (fact 47)');
  const missing = await call(fx, 'PATCH', '/v2/apps/ghost', appBody());
  t.equal(missing.status, 404);
  t.strictSame(missing.json, { message: "App '/ghost' does not exist" });
  t.equal((await call(fx, 'GET', '/v2/apps/ghost')).status, 404, 'not created');
});

t.test('a change to an app being deployed → 409 with the deployments; force=true overrides (facts 7, 48)', async (t) => {
  const fx = apiFor(t);
  const first = await created(t, fx, appBody());
  const deploymentId = String(first.headers['marathon-deployment-id']);
  tick(fx);
  for (const [method, url, body] of [
    ['PUT', '/v2/apps/foo', { cmd: 'x' }], ['PATCH', '/v2/apps/foo', { cmd: 'x' }], ['POST', '/v2/apps/foo/restart', undefined],
  ] as const) {
    const res = await call(fx, method, url, body);
    t.equal(res.status, 409, `${method} ${url}`);
    t.strictSame(res.json, {
      message: "App is locked by one or more deployments. Override with the option '?force=true'. "
        + `View details at '/v2/deployments/${deploymentId}'.`,
      deployments: [{ id: deploymentId }],
    }, `${method} ${url}`);
  }
  const forced = await call(fx, 'PUT', '/v2/apps/foo?force=True', { cmd: 'x' });
  t.equal(forced.status, 200, 'force=True is a true boolean');
  t.strictSame(runningDeploymentIds(fx), [forced.json.deploymentId], 'the old deployment was canceled');
  const bad = await call(fx, 'PUT', '/v2/apps/foo?force=maybe', { cmd: 'y' });
  t.equal(bad.status, 422, 'an unreadable boolean is refused');
});

t.test('PUT {"version": <older>} rolls back; version with other fields → 422; unknown version → 404 (fact 45)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ cmd: 'one' }));
  tick(fx);
  t.equal((await call(fx, 'PUT', '/v2/apps/foo', { cmd: 'two' })).status, 200);
  t.equal((await getApp(fx, '/foo')).cmd, 'two');
  tick(fx);
  const withOthers = await call(fx, 'PUT', '/v2/apps/foo?force=true', { version: V0, cmd: 'three' });
  t.equal(withOthers.status, 422);
  t.strictSame(withOthers.json.details, [{ path: '/', errors: ["The 'version' field may only be combined with the 'id' field."] }]);
  const unknown = await call(fx, 'PUT', '/v2/apps/foo?force=true', { version: '2020-01-01T00:00:00.000Z' });
  t.equal(unknown.status, 404);
  t.strictSame(unknown.json, { message: "App '/foo' does not exist" });
  const back = await call(fx, 'PATCH', '/v2/apps/foo?force=true', { id: '/foo', version: '2026-01-01T00:00:00Z' });
  t.equal(back.status, 200, back.text);
  const app = await getApp(fx, '/foo');
  t.equal(app.cmd, 'one');
  t.equal(app.version, '2026-01-01T00:00:02.000Z', 'the rolled-back definition is a new version');
});

t.test('an unchanged definition → 200 with a new deployment, same version, no restart (fact 46)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  tick(fx);
  fx.harness.clearRecords();
  const res = await call(fx, 'PUT', '/v2/apps/foo', { cmd: 'sleep 100' });
  t.equal(res.status, 200);
  t.type(res.json.deploymentId, 'string');
  t.strictSame(runningDeploymentIds(fx), [], 'the deployment had nothing to do');
  t.equal((await getApp(fx, '/foo')).version, V0);
  t.strictSame(fx.harness.calls('kill'), [], 'nothing was killed');
  const full = (await getApp(fx, '/foo'));
  const replay = await call(fx, 'PUT', '/v2/apps/foo?partialUpdate=false', full);
  t.equal(replay.status, 200, 'a full replacement with the GET output is accepted');
  t.equal((await getApp(fx, '/foo')).version, V0, 'and changes nothing');
});

t.test('a partial update that switches to container networking drops the stored port definitions', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  tick(fx);
  const res = await call(fx, 'PATCH', '/v2/apps/foo', { networks: [{ mode: 'container', name: 'overlay' }] });
  t.equal(res.status, 200, res.text);
  const app = await getApp(fx, '/foo');
  t.notOk('portDefinitions' in app);
  t.match(app, { networks: [{ mode: 'container', name: 'overlay' }], container: { portMappings: [{ containerPort: 0 }] } });
});

t.test('PUT shape and semantic errors of an update (facts 3, 4)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  const shape = await call(fx, 'PUT', '/v2/apps/foo', { instances: 'many' });
  t.equal(shape.status, 422);
  t.strictSame(shape.json, { message: 'Invalid JSON', details: [{ path: '/instances', errors: ['error.expected.jsnumber'] }] });
  const semantic = await call(fx, 'PUT', '/v2/apps/foo', { args: ['x'] });
  t.equal(semantic.status, 422);
  t.equal(semantic.json.message, 'Object is not valid', 'cmd (stored) and args (given) together');
  const broken = await call(fx, 'PUT', '/v2/apps/foo', '{"cmd":');
  t.equal(broken.status, 400);
});

t.test('PUT/PATCH publish api_post_event with the new definition', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  tick(fx);
  await call(fx, 'PUT', '/v2/apps/foo?force=true', { instances: 2 });
  await call(fx, 'PATCH', '/v2/apps/foo?force=true', { cmd: 'x' });
  t.strictSame(fx.apiEvents.map((e) => e.uri), ['/v2/apps', '/v2/apps/foo', '/v2/apps/foo']);
  t.match(fx.apiEvents[1].appDefinition, { id: '/foo', instances: 2 });
  t.match(fx.apiEvents[2].appDefinition, { id: '/foo', instances: 2, cmd: 'x' });
});

t.test('PUT /v2/apps with an array: one deployment for all the apps (fact 52)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a' }));
  tick(fx);
  const res = await call(fx, 'PUT', '/v2/apps', [{ id: '/a', instances: 2 }, appBody({ id: 'b' })]);
  t.equal(res.status, 200, res.text);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.strictSame(runningDeploymentIds(fx), [res.json.deploymentId]);
  t.equal((await getApp(fx, '/a')).instances, 2);
  t.equal((await getApp(fx, '/b')).cmd, 'sleep 100');
  t.equal(fx.apiEvents.length, 3);
});

t.test('bulk errors: element without id, element shape, not an array, PATCH of a missing app (fact 52)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a' }));
  const noId = await call(fx, 'PUT', '/v2/apps', [{ instances: 2 }]);
  t.equal(noId.status, 422);
  t.strictSame(noId.json, { message: 'requirement failed: App Update must have app id set' });
  const fullNoId = await call(fx, 'PUT', '/v2/apps?partialUpdate=false', [{ cmd: 'x' }]);
  t.equal(fullNoId.status, 422);
  t.strictSame(fullNoId.json.details, [{ path: '/(0)/id', errors: ['error.path.missing'] }]);
  const shape = await call(fx, 'PUT', '/v2/apps', [{ id: '/a' }, { id: '/a', mem: 'x' }]);
  t.equal(shape.status, 422);
  t.strictSame(shape.json.details, [{ path: '/(1)/mem', errors: ['error.expected.jsnumber'] }]);
  const object = await call(fx, 'PUT', '/v2/apps', { id: '/a' });
  t.equal(object.status, 422);
  t.strictSame(object.json.details, [{ path: '/', errors: ['error.expected.jsarray'] }]);
  const patchMissing = await call(fx, 'PATCH', '/v2/apps', [appBody({ id: '/ghost' })]);
  t.equal(patchMissing.status, 404);
  t.strictSame(patchMissing.json, { message: "App '/ghost' does not exist" });
});

t.test('the role of a resident app changes only with force (fact 114)', async (t) => {
  // With --mesos_role ops, apps below /dev may use ops or dev.
  const fx = apiFor(t, { defaultRole: 'ops' });
  const volumes = [{ containerPath: 'data', mode: 'RW', persistent: { size: 10 } }];
  await created(t, fx, appBody({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes } }));
  const star = await call(fx, 'PATCH', '/v2/apps/dev/db?force=true', { role: '*' });
  t.equal(star.status, 422, 'a resident app may not use *');
  const change = await call(fx, 'PATCH', '/v2/apps/dev/db', { role: 'ops' });
  t.equal(change.status, 422);
  t.match(change.json.details, [{ path: '/role', errors: [/^It is not possible to change the role for existing reservations/] }]);
  const forced = await call(fx, 'PATCH', '/v2/apps/dev/db?force=true', { role: 'ops' });
  t.equal(forced.status, 200, forced.text);
  t.equal((await getApp(fx, '/dev/db')).role, 'ops');
});

t.test('an existing app keeps its old role acceptable after enforceRole is switched on, until changed (fact 111)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/dev/a' }));
  t.equal((await call(fx, 'PATCH', '/v2/groups/dev', { enforceRole: true })).status, 200);
  const rows: [string, Json, number, string | undefined][] = [
    ['a scale keeps the old role *', { instances: 2 }, 200, undefined],
    ['the old role given explicitly', { role: '*', instances: 1 }, 200, undefined],
    ['a third role: the message lists the group role and the old one', { role: 'foo' }, 422, 'got foo, expected one of: [dev, *]'],
    ['moving to the group role', { role: 'dev' }, 200, undefined],
    ['going back is refused once changed', { role: '*' }, 422, 'got *, expected one of: [dev]'],
  ];
  for (const [name, patch, status, error] of rows) {
    const res = await call(fx, 'PATCH', '/v2/apps/dev/a?force=true', patch);
    t.equal(res.status, status, `${name}: ${res.text}`);
    if (error !== undefined) t.strictSame(res.json, { message: 'Object is not valid', details: [{ path: '/role', errors: [error] }] }, name);
  }
  t.equal((await getApp(fx, '/dev/a')).role, 'dev');
});

t.test('PATCH of an ephemeral app\'s role redeploys it with the new role and registers the role with the cluster (spec section 3)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/dev/a' }));
  tick(fx);
  const res = await call(fx, 'PATCH', '/v2/apps/dev/a', { role: 'dev' });
  t.equal(res.status, 200, res.text);
  const [d] = fx.deps.scheduler.deployments();
  t.strictSame(d.deployment.plan.steps.map((s) => s.actions.map((a) => a.action)), [['RestartApplication']], 'a role change restarts (fact 47)');
  t.strictSame(fx.harness.calls('updateFramework').map((c) => c.roles), [['*', 'dev']]);
  t.equal((await getApp(fx, '/dev/a')).role, 'dev');
});
