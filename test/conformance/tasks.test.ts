import t from 'tap';
import { behaviour, MARATHON, pacer, runningApp, TIMESTAMP } from './conformance-kit';

// Tasks and kill-and-scale (marathon-api-facts.md section D, task JSON fact 40).

t.test(behaviour('GET /v2/apps/{id}/tasks → {tasks} with every field of a task; servicePorts [] app-scoped (facts 53, 40)', MARATHON.taskWriter), async (t) => {
  const p = await pacer(t);
  const [launched] = await runningApp(t, p, '/foo');
  const res = await p.call('GET', '/v2/apps/foo/tasks');
  t.equal(res.status, 200);
  const [task] = res.json.tasks;
  t.match(task, {
    appId: '/foo', id: launched.taskId, host: String, state: 'TASK_RUNNING', slaveId: String, stagedAt: TIMESTAMP, startedAt: TIMESTAMP,
    version: TIMESTAMP, ports: Array, ipAddresses: Array, servicePorts: [], healthCheckResults: [], localVolumes: [], role: '*',
  });
  t.equal((await p.call('GET', '/v2/apps/nope/tasks')).status, 404);
});

t.test(behaviour('DELETE /v2/apps/{id}/tasks/{taskId} without a body → 200 {task}; the instance is relaunched, instances unchanged (fact 54)', MARATHON.appTasks), async (t) => {
  const p = await pacer(t);
  const [launched] = await runningApp(t, p, '/foo');
  const res = await p.call('DELETE', `/v2/apps/foo/tasks/${launched.taskId}`);
  t.equal(res.status, 200);
  t.match(res.json, { task: { id: launched.taskId, appId: '/foo' } });
  t.equal((await p.call('GET', '/v2/apps/foo')).json.app.instances, 1);
  const unknown = await p.call('DELETE', '/v2/apps/foo/tasks/foo.instance-00000000-0000-0000-0000-000000000000._app.1');
  t.equal(unknown.status, 404);
  t.equal(unknown.json.details.length, 0);
});

t.test(behaviour('kill with scale=true → 200 {version, deploymentId} and instances lowered; scale with wipe → 400 (fact 55)', MARATHON.appTasks), async (t) => {
  const p = await pacer(t);
  const launched = await runningApp(t, p, '/foo', { instances: 2 });
  const both = await p.call('DELETE', `/v2/apps/foo/tasks/${launched[0].taskId}?scale=true&wipe=true`);
  t.equal(both.status, 400);
  t.same(both.json, { message: 'You cannot use scale and wipe at the same time.' });
  const res = await p.call('DELETE', `/v2/apps/foo/tasks/${launched[0].taskId}?scale=true`);
  t.equal(res.status, 200);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers.get('marathon-deployment-id'), res.json.deploymentId);
  t.equal((await p.call('GET', '/v2/apps/foo')).json.app.instances, 1);
});

t.test(behaviour('DELETE /v2/apps/{id}/tasks?host=… kills the app\'s tasks there: {tasks}, or with scale=true a deployment (fact 56)', MARATHON.appTasks), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/foo', { instances: 2 });
  const killed = await p.call('DELETE', '/v2/apps/foo/tasks?host=*');
  t.equal(killed.status, 200);
  t.equal(killed.json.tasks.length, 2);
  p.runAll();
  const scaled = await p.call('DELETE', '/v2/apps/foo/tasks?host=*&scale=true&force=true');
  t.equal(scaled.status, 200);
  t.same(Object.keys(scaled.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/foo')).json.app.instances, 0);
});

t.test(behaviour('GET /v2/tasks → {tasks} of apps; POST /v2/tasks/delete {ids} → {tasks}, a malformed id → 400 (facts 57, 58)', MARATHON.tasks), async (t) => {
  const p = await pacer(t);
  const [launched] = await runningApp(t, p, '/foo');
  const list = await p.call('GET', '/v2/tasks');
  t.match(list.json, { tasks: [{ id: launched.taskId, appId: '/foo' }] });
  const bad = await p.call('POST', '/v2/tasks/delete', { ids: ['garbage'] });
  t.equal(bad.status, 400);
  t.match(bad.json.message, /^Invalid task id 'garbage'\./);
  const res = await p.call('POST', '/v2/tasks/delete', { ids: [launched.taskId] });
  t.equal(res.status, 200);
  t.match(res.json, { tasks: [{ id: launched.taskId }] });
  p.runAll();
  const [again] = (await p.call('GET', '/v2/tasks')).json.tasks;
  const scaled = await p.call('POST', '/v2/tasks/delete?scale=true', { ids: [again.id] });
  t.same(Object.keys(scaled.json).sort(), ['deploymentId', 'version'], 'with scale=true: one deployment');
});
