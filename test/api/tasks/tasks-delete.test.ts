import t from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeApp } from '../../builders/run-spec-builders';
import { body, launchRunning, type TaskWire } from './tasks-fixture';
import { isTerminalTaskState } from '../../../src/scheduler/model/task-state';
import { MAX_ITEMS } from '../../../src/marathon/schemas/limits';

function kill(fx: ApiFixture, payload: unknown, query = '') {
  return fx.app.inject({
    method: 'POST',
    url: `/v2/tasks/delete${query}`,
    headers: { 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

function deployed(instances = 2): { fx: ApiFixture; taskIds: string[] } {
  const fx = makeApi();
  const taskIds = launchRunning(fx, makeApp({ id: '/web', instances })).map((l) => l.taskId);
  return { fx, taskIds };
}

t.test('kill without flags → 200 {tasks:[…]} as before the kill; the instance is relaunched', async (t) => {
  const { fx, taskIds } = deployed();
  t.teardown(() => fx.app.close());
  const res = await kill(fx, { ids: [taskIds[0]] });
  t.equal(res.statusCode, 200);
  const { tasks } = body<{ tasks: TaskWire[] }>(res);
  t.same(tasks.map((x) => [x.id, x.state]), [[taskIds[0], 'TASK_RUNNING']]);
  t.same(fx.harness.calls('kill').map((c) => c.taskId), [taskIds[0]]);
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2, 'instances unchanged');
  t.equal(new Set(fx.harness.events('deployment_info').map((e) => e.plan.id)).size, 1, 'no deployment besides the create');
});

t.test('ids that match nothing are skipped; duplicates count once', async (t) => {
  const { fx, taskIds } = deployed();
  t.teardown(() => fx.app.close());
  const res = await kill(fx, { ids: ['web.instance-00000000-0000-4000-8000-000000000000._app.1', taskIds[1], taskIds[1]] });
  t.equal(res.statusCode, 200);
  t.same(body<{ tasks: TaskWire[] }>(res).tasks.map((x) => x.id), [taskIds[1]]);
  t.equal(fx.harness.calls('kill').length, 1);
});

t.test('scale=true → 200 {version, deploymentId} + header; instances lowered', async (t) => {
  const { fx, taskIds } = deployed(3);
  t.teardown(() => fx.app.close());
  const res = await kill(fx, { ids: [taskIds[0], taskIds[2]] }, '?scale=true');
  t.equal(res.statusCode, 200);
  const result = body<{ version: string; deploymentId: string }>(res);
  t.type(result.deploymentId, 'string');
  t.ok(result.deploymentId.length > 0);
  t.type(result.version, 'string');
  t.equal(res.headers['marathon-deployment-id'], result.deploymentId);
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 1);
  t.same(fx.harness.calls('kill').map((c) => c.taskId).sort(), [taskIds[0], taskIds[2]].sort());
});

t.test('scale=true over two apps → ONE deployment scaling both (fact 58)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const web = launchRunning(fx, makeApp({ id: '/web', instances: 2 })).map((l) => l.taskId);
  const api = launchRunning(fx, makeApp({ id: '/api', instances: 3 })).map((l) => l.taskId);
  fx.harness.clearRecords();
  const res = await kill(fx, { ids: [web[0], api[0], api[1]] }, '?scale=true');
  t.equal(res.statusCode, 200);
  const { deploymentId } = body<{ deploymentId: string }>(res);
  t.same(fx.harness.events('deployment_info').map((e) => e.plan.id), [deploymentId], 'one deployment');
  t.same(fx.harness.events('deployment_info')[0]?.currentStep.actions.map((a) => a.app).sort(), ['/api', '/web']);
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 1);
  t.equal(fx.harness.scheduler.runSpec('/api')?.instances, 1);
  t.same(fx.harness.calls('kill').map((c) => c.taskId).sort(), [web[0], api[0], api[1]].sort());
});

t.test('scale=true that kills nothing answers Marathon\'s DeploymentResult but changes nothing: no deployment, no root version', async (t) => {
  const { fx, taskIds } = deployed(1);
  t.teardown(() => fx.app.close());
  const rootBefore = fx.harness.scheduler.root();
  const deploymentsBefore = fx.harness.events('deployment_info').length;
  const unknownTask = taskIds[0].replace(/instance-[0-9a-f-]+/, 'instance-00000000-0000-0000-0000-000000000000');
  for (const ids of [[], [unknownTask]]) {
    const res = await kill(fx, { ids }, '?scale=true');
    t.equal(res.statusCode, 200, JSON.stringify(ids));
    const answer = body<{ deploymentId: string; version: string }>(res);
    t.match(answer, { deploymentId: /^[0-9a-f-]{36}$/, version: rootBefore.version }, 'a DeploymentResult with the current root version');
    t.equal(res.headers['marathon-deployment-id'], answer.deploymentId);
  }
  t.equal(fx.harness.scheduler.root(), rootBefore, 'the root is unchanged: no new version');
  t.same(fx.harness.scheduler.deployments(), [], 'no deployment running');
  t.equal(fx.harness.events('deployment_info').length, deploymentsBefore, 'no deployment started');
  t.same(fx.harness.events('group_change_success').length, 1, 'only the create changed the root');
  t.same(fx.harness.calls('kill'), [], 'nothing killed');
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 1);
});

t.test('scale while the app is being deployed → 409 unless force', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [first] = launchRunning(fx, makeApp({ id: '/web', instances: 1 }));
  fx.harness.scale('/web', 3); // waits for offers: the deployment keeps running
  const running = fx.harness.scheduler.deployments().map((d) => d.deployment.plan.id);
  t.equal(running.length, 1);
  const res = await kill(fx, { ids: [first.taskId] }, '?scale=true');
  t.equal(res.statusCode, 409);
  t.same(body(res).deployments, [{ id: running[0] }]);
  t.equal(fx.harness.calls('kill').length, 0, 'nothing killed');
  const forced = await kill(fx, { ids: [first.taskId] }, '?scale=true&force=true');
  t.equal(forced.statusCode, 200);
  t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2);
});

t.test('wipe=true expunges the instance before the 200, as Marathon force-expunges it (api/TaskKiller.scala:44-52); a new instance replaces it', async (t) => {
  const { fx, taskIds } = deployed(1);
  t.teardown(() => fx.app.close());
  const before = fx.harness.instances('/web')[0].instanceId;
  const res = await kill(fx, { ids: [taskIds[0]] }, '?wipe=true');
  t.equal(res.statusCode, 200);
  t.equal(body<{ tasks: TaskWire[] }>(res).tasks.length, 1);
  t.same(fx.harness.calls('kill').map((c) => c.taskId), [taskIds[0]], 'the task is killed');
  let ids = fx.harness.instances('/web').map((i) => i.instanceId);
  t.notOk(ids.includes(before), 'the wiped instance is gone when the 200 arrives, before any TASK_KILLED');
  t.equal(ids.length, 1, 'a replacement was scheduled');
  const listed = await fx.app.inject({ method: 'GET', url: '/v2/tasks' });
  t.notOk(body<{ tasks: TaskWire[] }>(listed).tasks.some((x) => x.id === taskIds[0]), 'GET /v2/tasks no longer lists its task');
  // What an event consumer sees (README, Kill): the instance ends by instance_changed_event Killed
  // alone, as Marathon's force expunge (InstanceUpdater.forceExpunge) publishes no task event.
  t.match(fx.harness.events('instance_changed_event').filter((e) => e.instanceId === before).at(-1), { condition: 'Killed' }, 'instance_changed_event Killed');
  t.same(fx.harness.events('status_update_event').filter((e) => e.taskId === taskIds[0] && isTerminalTaskState(e.taskStatus)).map((e) => e.taskStatus), [], 'no terminal status_update_event for the wiped task');
  fx.harness.status(taskIds[0], 'TASK_KILLED');
  t.same(fx.harness.events('status_update_event').filter((e) => e.taskId === taskIds[0] && isTerminalTaskState(e.taskStatus)).map((e) => e.taskStatus), [], 'not even when its TASK_KILLED arrives');
  ids = fx.harness.instances('/web').map((i) => i.instanceId);
  t.notOk(ids.includes(before));
  t.equal(ids.length, 1, 'the late TASK_KILLED changes nothing');
  t.match(fx.harness.events('unknown_instance_terminated_event'), [{ instanceId: before, runSpecId: '/web', condition: 'Killed' }], 'it is reported as an unknown instance\'s task');
});

t.test('errors', async (t) => {
  const { fx, taskIds } = deployed(1);
  t.teardown(() => fx.app.close());
  const cases: { name: string; payload: unknown; query?: string; status: number; body: unknown }[] = [
    { name: 'scale with wipe', payload: { ids: [taskIds[0]] }, query: '?scale=true&wipe=true', status: 400, body: { message: 'You cannot use scale and wipe at the same time.' } },
    { name: 'scale with wipe wins over a bad body', payload: { nope: 1 }, query: '?scale=true&wipe=true', status: 400, body: { message: 'You cannot use scale and wipe at the same time.' } },
    { name: 'malformed id', payload: { ids: [taskIds[0], 'garbage'] }, status: 400, body: { message: "Invalid task id 'garbage'." } },
    { name: 'missing ids', payload: {}, status: 422, body: { message: 'Invalid JSON', details: [{ path: '/ids', errors: ['error.path.missing'] }] } },
    { name: 'body not an object', payload: ['a.b'], status: 422, body: { message: 'Invalid JSON', details: [{ path: '/ids', errors: ['error.path.missing'] }] } },
    { name: 'ids not a list', payload: { ids: 'x' }, status: 422, body: { message: 'Invalid JSON', details: [{ path: '/ids', errors: ['error.expected.jsarray'] }] } },
    { name: 'id not a string', payload: { ids: ['a.b', 3] }, status: 422, body: { message: 'Invalid JSON', details: [{ path: '/ids(1)', errors: ['error.expected.jsstring'] }] } },
    { name: 'bad boolean', payload: { ids: [] }, query: '?scale=maybe', status: 422, body: { message: 'Invalid JSON' } },
    { name: 'broken JSON', payload: '{"ids":', status: 400, body: { message: 'Invalid JSON' } },
    { name: 'empty body', payload: '', status: 400, body: { message: 'Please specify data in JSON format' } },
  ];
  for (const c of cases) {
    const res = await kill(fx, c.payload, c.query);
    t.equal(res.statusCode, c.status, c.name);
    t.match(body(res), c.body, c.name);
  }
  t.equal(fx.harness.calls('kill').length, 0, 'no error killed anything');
});

t.test('the ids list is bounded by MAX_ITEMS, checked before any id is looked at', async (t) => {
  const wellFormed = (i: number): string => `web.instance-00000000-0000-4000-8000-${String(i).padStart(12, '0')}._app.1`;
  const rows: ReadonlyArray<{ name: string; ids: (taskIds: string[]) => unknown[]; query: string; status: number; killed: number }> = [
    { name: `${MAX_ITEMS} ids (the bound) are served`, ids: (ids) => [ids[0], ...Array.from({ length: MAX_ITEMS - 1 }, (_, i) => wellFormed(i))], query: '', status: 200, killed: 1 },
    { name: `${MAX_ITEMS + 1} ids: 422 at /ids`, ids: (ids) => [ids[0], ...Array.from({ length: MAX_ITEMS }, (_, i) => wellFormed(i))], query: '', status: 422, killed: 0 },
    { name: 'duplicates count', ids: (ids) => Array.from({ length: MAX_ITEMS + 1 }, () => ids[0]), query: '?scale=true', status: 422, killed: 0 },
    { name: 'checked before the ids\' shapes', ids: () => Array.from({ length: MAX_ITEMS + 1 }, () => 7), query: '', status: 422, killed: 0 },
  ];
  for (const row of rows) {
    const { fx, taskIds } = deployed();
    t.teardown(() => fx.app.close());
    const res = await kill(fx, { ids: row.ids(taskIds) }, row.query);
    t.equal(res.statusCode, row.status, `${row.name}: status (${res.body.slice(0, 200)})`);
    if (row.status === 422) {
      t.same(JSON.parse(res.body), { message: 'Invalid JSON', details: [{ path: '/ids', errors: ['error.maxLength'] }] }, `${row.name}: body`);
      t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2, `${row.name}: not scaled`);
    }
    t.equal(fx.harness.calls('kill').length, row.killed, `${row.name}: kills`);
  }
});
