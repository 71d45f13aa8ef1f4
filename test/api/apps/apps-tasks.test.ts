import t, { type Test } from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import type { TaskLaunch } from '../../../src/scheduler/model/launch';
import { apiFor, appBody, call, created, type Json, running, runningDeploymentIds, tick } from './apps-kit';

/** Two offers on two hosts, one instance each. */
const TWO_HOSTS = [makeOffer({ agent: { hostname: 'h1' }, cpus: 0.1, mem: 32 }), makeOffer({ agent: { hostname: 'h2' }, cpus: 0.1, mem: 32 })];

async function twoInstances(t: Test, fx: ReturnType<typeof apiFor>): Promise<TaskLaunch[]> {
  const launched = await running(t, fx, appBody({ instances: 2 }), ...TWO_HOSTS);
  t.equal(launched.length, 2, 'two tasks run');
  tick(fx);
  return launched;
}

function ids(tasks: unknown): string[] {
  return (tasks as Json[]).map((task) => String(task.id)).sort();
}

t.test('GET /v2/apps/{id}/tasks → {"tasks":[…]}; unknown app → 404 with details (fact 53)', async (t) => {
  const fx = apiFor(t);
  const launched = await twoInstances(t, fx);
  const res = await call(fx, 'GET', '/v2/apps/foo/tasks');
  t.equal(res.status, 200);
  t.strictSame(ids(res.json.tasks), launched.map((l) => l.taskId).sort());
  t.match(res.json.tasks, [{ appId: '/foo', state: 'TASK_RUNNING', servicePorts: [] }, { appId: '/foo' }]);
  const unknown = await call(fx, 'GET', '/v2/apps/nope/tasks');
  t.equal(unknown.status, 404);
  t.strictSame(unknown.json, { message: "App '/nope' does not exist", details: [] });
});

t.test('GET /v2/apps/{group}/*/tasks → the tasks of every app below the group (fact 53)', async (t) => {
  const fx = apiFor(t);
  const [web] = await running(t, fx, appBody({ id: '/prod/web' }));
  const [db] = await running(t, fx, appBody({ id: '/prod/back/db' }));
  await running(t, fx, appBody({ id: '/dev/web' }));
  const res = await call(fx, 'GET', '/v2/apps/prod/*/tasks');
  t.equal(res.status, 200);
  t.strictSame(ids(res.json.tasks), [web.taskId, db.taskId].sort());
  t.equal((await call(fx, 'GET', '/v2/apps/*/tasks')).status, 200, 'the root group');
  t.equal((await call(fx, 'GET', '/v2/apps/none/*/tasks')).status, 404);
});

t.test('DELETE /v2/apps/{id}/tasks/{taskId} → {"task":…}; the instance is relaunched, instances unchanged (fact 54)', async (t) => {
  const fx = apiFor(t);
  const [first] = await twoInstances(t, fx);
  const res = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${first.taskId}`);
  t.equal(res.status, 200, res.text);
  t.match(res.json, { task: { id: first.taskId, appId: '/foo', state: 'TASK_RUNNING' } });
  t.ok(fx.harness.calls('kill').some((c) => c.taskId === first.taskId), 'killed');
  const app = (await call(fx, 'GET', '/v2/apps/foo')).json.app as Json;
  t.equal(app.instances, 2);
  t.strictSame(runningDeploymentIds(fx), [], 'no deployment');
});

t.test('DELETE of a task that matches nothing → 404 with details; of an unknown app → 404 (fact 54)', async (t) => {
  const fx = apiFor(t);
  await twoInstances(t, fx);
  const wellFormed = 'foo.instance-00000000-0000-4000-8000-000000000000._app.1';
  const res = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${wellFormed}`);
  t.equal(res.status, 404);
  t.strictSame(res.json, { message: `Task '${wellFormed}' does not exist`, details: [] });
  t.equal((await call(fx, 'DELETE', '/v2/apps/foo/tasks/garbage')).status, 404);
  const app = await call(fx, 'DELETE', `/v2/apps/nope/tasks/${wellFormed}`);
  t.equal(app.status, 404);
  t.strictSame(app.json, { message: "App '/nope' does not exist", details: [] });
  const scaled = await call(fx, 'DELETE', `/v2/apps/nope/tasks/${wellFormed}?scale=true`);
  t.equal(scaled.status, 404);
  t.strictSame(scaled.json, { message: "Path '/nope' does not exist" }, 'kill-and-scale raises fact 2');
});

t.test('kill with ?scale=true → {version, deploymentId} and instances lowered by one (fact 55)', async (t) => {
  const fx = apiFor(t);
  const [first] = await twoInstances(t, fx);
  const res = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${first.taskId}?scale=true`);
  t.equal(res.status, 200, res.text);
  t.strictSame(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], res.json.deploymentId);
  t.equal(((await call(fx, 'GET', '/v2/apps/foo')).json.app as Json).instances, 1);
});

t.test('a task still in its grace period killed and scaled again lowers instances once, by any route (fact 55)', async (t) => {
  const fx = apiFor(t);
  const [first, second] = await twoInstances(t, fx);
  t.equal((await call(fx, 'DELETE', `/v2/apps/foo/tasks/${first.taskId}?scale=true`)).status, 200);
  tick(fx);
  const again = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${first.taskId}?scale=true&force=true`);
  t.equal(again.status, 200, again.text);
  const viaTasks = await call(fx, 'POST', '/v2/tasks/delete?scale=true&force=true', { ids: [first.taskId] });
  t.equal(viaTasks.status, 200, viaTasks.text);
  t.equal(((await call(fx, 'GET', '/v2/apps/foo')).json.app as Json).instances, 1, 'lowered once');
  t.notOk(fx.harness.calls('kill').some((c) => c.taskId === second.taskId), 'the healthy task is left alone');
});

t.test('scale and wipe together → 400 (fact 55)', async (t) => {
  const fx = apiFor(t);
  const [first] = await twoInstances(t, fx);
  for (const url of [`/v2/apps/foo/tasks/${first.taskId}?scale=true&wipe=true`, '/v2/apps/foo/tasks?scale=True&wipe=TRUE']) {
    const res = await call(fx, 'DELETE', url);
    t.equal(res.status, 400, url);
    t.strictSame(res.json, { message: 'You cannot use scale and wipe at the same time.' }, url);
  }
  t.strictSame(fx.harness.calls('kill'), [], 'nothing was killed');
});

t.test('DELETE /v2/apps/{id}/tasks?host=… kills the tasks on that host (fact 56)', async (t) => {
  const fx = apiFor(t);
  const launched = await twoInstances(t, fx);
  const onH1 = launched.find((l) => l.agentId === 'agent-h1');
  const res = await call(fx, 'DELETE', '/v2/apps/foo/tasks?host=h1');
  t.equal(res.status, 200);
  t.strictSame(ids(res.json.tasks), [onH1?.taskId]);
  t.strictSame(fx.harness.calls('kill').map((c) => c.taskId), [onH1?.taskId]);
  const none = await call(fx, 'DELETE', '/v2/apps/foo/tasks?host=elsewhere');
  t.strictSame(none.json, { tasks: [] });
});

t.test('DELETE /v2/apps/{id}/tasks?host=*&scale=true kills all and scales to zero (fact 56)', async (t) => {
  const fx = apiFor(t);
  const launched = await twoInstances(t, fx);
  const res = await call(fx, 'DELETE', '/v2/apps/foo/tasks?host=*&scale=true');
  t.equal(res.status, 200, res.text);
  t.type(res.json.deploymentId, 'string');
  t.equal(((await call(fx, 'GET', '/v2/apps/foo')).json.app as Json).instances, 0);
  t.strictSame(fx.harness.calls('kill').map((c) => c.taskId).sort(), launched.map((l) => l.taskId).sort());
});

t.test('wipe=true forgets the instance before the 200 (api/TaskKiller.scala:44-52 force-expunges it): its replacement is a new instance (fact 56)', async (t) => {
  const fx = apiFor(t);
  const [first] = await twoInstances(t, fx);
  const instanceId = first.taskId.replace(/\._app\.\d+$/, '');
  const res = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${first.taskId}?wipe=true`);
  t.equal(res.status, 200, res.text);
  const listed = ((await call(fx, 'GET', '/v2/apps/foo/tasks')).json.tasks as { id: string }[]).map((x) => x.id);
  t.notOk(listed.includes(first.taskId), 'not listed once the 200 has arrived, before any TASK_KILLED');
  t.notOk(fx.harness.instances('/foo').some((i) => i.instanceId === instanceId));
  fx.harness.status(first.taskId, 'TASK_KILLED');
  const instanceIds = fx.harness.instances('/foo').map((i) => i.instanceId);
  t.notOk(instanceIds.includes(instanceId), 'the wiped instance is gone');
  t.equal(((await call(fx, 'GET', '/v2/apps/foo')).json.app as Json).instances, 2, 'the target is unchanged');
});

t.test('kill-and-scale of an app that is being deployed → 409 unless force (fact 48)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ instances: 2 }));
  const [launch] = fx.harness.offer(makeOffer({ cpus: 0.1, mem: 32 }));
  fx.harness.run(launch);
  tick(fx);
  const locked = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${launch.taskId}?scale=true`);
  t.equal(locked.status, 409);
  const forced = await call(fx, 'DELETE', `/v2/apps/foo/tasks/${launch.taskId}?scale=true&force=true`);
  t.equal(forced.status, 200, forced.text);
});
