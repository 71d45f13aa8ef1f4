import t from 'tap';
import { apiFor, appBody, call, created, type Json, running, runAll, runningDeploymentIds, tick } from './apps-kit';

function actionsOf(fx: ReturnType<typeof apiFor>, deploymentId: unknown): string[][] {
  const found = fx.deps.scheduler.deployments().find((d) => d.deployment.plan.id === deploymentId);
  return found === undefined ? [] : found.deployment.plan.steps.map((s) => s.actions.map((a) => a.action));
}

t.test('DELETE /v2/apps/{id} → 200 {version, deploymentId}; the app is gone at once, its tasks killed (fact 49)', async (t) => {
  const fx = apiFor(t);
  const [launch] = await running(t, fx, appBody());
  tick(fx);
  const res = await call(fx, 'DELETE', '/v2/apps/foo');
  t.equal(res.status, 200);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], res.json.deploymentId);
  t.strictSame(actionsOf(fx, res.json.deploymentId), [['StopApplication']]);
  t.equal((await call(fx, 'GET', '/v2/apps/foo')).status, 404);
  t.strictSame((await call(fx, 'GET', '/v2/apps')).json, { apps: [] });
  t.ok(fx.harness.calls('kill').some((c) => c.taskId === launch.taskId), 'its task is killed');
});

t.test('DELETE of an unknown app → 404 without details (facts 2, 49)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'DELETE', '/v2/apps/nope');
  t.equal(res.status, 404);
  t.strictSame(res.json, { message: "App '/nope' does not exist" });
});

t.test('DELETE defaults to force=true: no 409 while the app deploys; force=false respects the lock (facts 14, 49)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/a' }));
  await created(t, fx, appBody({ id: '/b' }));
  tick(fx);
  const locked = await call(fx, 'DELETE', '/v2/apps/b?force=false');
  t.equal(locked.status, 409);
  t.match(locked.json, { deployments: [{ id: String }] });
  const res = await call(fx, 'DELETE', '/v2/apps/a');
  t.equal(res.status, 200, res.text);
  t.equal((await call(fx, 'GET', '/v2/apps/a')).status, 404);
});

t.test('DELETE publishes api_post_event with the deleted definition (spec section 6)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  await call(fx, 'DELETE', '/v2/apps/foo');
  t.equal(fx.apiEvents.length, 2);
  t.match(fx.apiEvents[1], { eventType: 'api_post_event', uri: '/v2/apps/foo', appDefinition: { id: '/foo', cmd: 'sleep 100' } });
});

t.test('POST /v2/apps/{id}/restart → 200 with a RestartApplication deployment (fact 50)', async (t) => {
  const fx = apiFor(t);
  const [old] = await running(t, fx, appBody({ id: '/prod/web' }));
  tick(fx);
  const res = await call(fx, 'POST', '/v2/apps/prod/web/restart');
  t.equal(res.status, 200, res.text);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], res.json.deploymentId);
  t.strictSame(actionsOf(fx, res.json.deploymentId), [['RestartApplication']]);
  runAll(fx);
  t.ok(fx.harness.calls('kill').some((c) => c.taskId === old.taskId), 'the old instance is replaced');
  fx.harness.status(old.taskId, 'TASK_KILLED');
  t.strictSame(runningDeploymentIds(fx), [], 'the restart finished');
  const app = (await call(fx, 'GET', '/v2/apps/prod/web')).json.app as Json;
  t.equal((app.versionInfo as Json).lastConfigChangeAt, '2026-01-01T00:00:01.000Z');
});

t.test('restart: unknown app → 404; a deploying app → 409 unless force (facts 48, 50)', async (t) => {
  const fx = apiFor(t);
  const unknown = await call(fx, 'POST', '/v2/apps/nope/restart');
  t.equal(unknown.status, 404);
  t.strictSame(unknown.json, { message: "App '/nope' does not exist" });
  await created(t, fx, appBody());
  tick(fx);
  t.equal((await call(fx, 'POST', '/v2/apps/foo/restart')).status, 409);
  const forced = await call(fx, 'POST', '/v2/apps/foo/restart?force=true');
  t.equal(forced.status, 200);
  t.strictSame(runningDeploymentIds(fx), [forced.json.deploymentId]);
});

t.test('only restart is POSTed below an app; other POSTs are 405 with the methods the path is served with', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody());
  const res = await call(fx, 'POST', '/v2/apps/foo/scale', {});
  t.equal(res.status, 405);
  t.equal(res.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
  t.match(res.json, { message: /^Method Not Allowed: POST \/v2\/apps\/foo\/scale/ });
  const get = await call(fx, 'GET', '/v2/apps/foo/restart');
  t.equal(get.status, 404, 'GET …/restart names the app /foo/restart');
  t.strictSame(get.json, { message: "App '/foo/restart' does not exist", details: [] });
});
