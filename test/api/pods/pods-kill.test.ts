import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { createPod, launch, list, onlyInstanceId, podApi, podBody, send } from './pod-api-builders';

t.test('DELETE ::instances/{id}: 200 with the instance as it was; the same instance is relaunched (fact 87)', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const [task] = launch(api);
  const instanceId = onlyInstanceId(api);
  const res = await send(api.app, 'DELETE', `/v2/pods/p::instances/${instanceId}`);
  t.equal(res.status, 200);
  t.match(res.json, {
    instanceId,
    state: { condition: 'Running', goal: 'Running' },
    agentInfo: { host: 'host-1', agentId: 'agent-host-1', attributes: [] },
    runSpecVersion: '2026-01-01T00:00:00.000Z',
    unreachableStrategy: { inactiveAfterSeconds: 900, expungeAfterSeconds: 604800 },
  });
  t.strictSame(api.harness.calls('kill').map((c) => c.taskId), [task.taskId]);
  api.harness.status(task.taskId, 'TASK_KILLED');
  t.equal(onlyInstanceId(api), instanceId, 'kept its id (no wipe)');
  t.strictSame(api.apiEvents.map((e) => e.eventType), ['pod_created_event'], 'killing emits no pod event');
});

t.test('?wipe=true forgets the instance: a new one replaces it', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const [task] = launch(api);
  const instanceId = onlyInstanceId(api);
  const res = await send(api.app, 'DELETE', `/v2/pods/p::instances/${instanceId}?wipe=true`);
  t.equal(res.status, 200);
  api.harness.status(task.taskId, 'TASK_KILLED');
  const ids = api.harness.instances('/p').map((i) => i.instanceId);
  t.notOk(ids.includes(instanceId));
  t.equal(ids.length, 1);
});

t.test('kill one: errors (fact 87)', async (t) => {
  const api = podApi(t);
  await createPod(api);
  launch(api);
  const malformed = await send(api.app, 'DELETE', '/v2/pods/p::instances/not-an-instance');
  t.equal(malformed.status, 422);
  t.equal(malformed.json.message, 'Object is not valid');
  const unknown = await send(api.app, 'DELETE', '/v2/pods/p::instances/p.instance-00000000-0000-4000-8000-000000000000');
  t.equal(unknown.status, 404);
  t.strictSame(unknown.json, { message: "Task 'p.instance-00000000-0000-4000-8000-000000000000' does not exist", details: [] });
  const noPod = await send(api.app, 'DELETE', '/v2/pods/nope::instances/nope.instance-1');
  t.equal(noPod.status, 404);
  t.strictSame(noPod.json, { message: "Pod '/nope' does not exist", details: [] });
  t.equal(api.harness.calls('kill').length, 0);
});

t.test('DELETE ::instances with a list: kills the listed instances, skips unknown ids (fact 88)', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({ scaling: { kind: 'fixed', instances: 3 } }));
  launch(api);
  const ids = api.harness.instances('/p').map((i) => i.instanceId);
  t.equal(ids.length, 3);
  const unknown = 'p.instance-00000000-0000-4000-8000-000000000000';
  const res = await send(api.app, 'DELETE', '/v2/pods/p::instances', [ids[0], unknown, ids[2], ids[0]]);
  t.equal(res.status, 200);
  t.strictSame(list(res.json).map((i) => i.instanceId).sort(), [ids[0], ids[2]].sort());
  t.equal(api.harness.calls('kill').length, 2);
  const none = await send(api.app, 'DELETE', '/v2/pods/p::instances', []);
  t.strictSame(none.json, []);
});

t.test('kill many: errors', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const cases: [string, unknown, number][] = [
    ['an object instead of a list', { ids: [] }, 422],
    ['a list of numbers', [1, 2], 422],
    ['a malformed id', ['x'], 422],
  ];
  for (const [name, body, status] of cases) {
    const res = await send(api.app, 'DELETE', '/v2/pods/p::instances', body);
    t.equal(res.status, status, name);
  }
  const noBody = await send(api.app, 'DELETE', '/v2/pods/p::instances');
  t.equal(noBody.status, 400);
  const noPod = await send(api.app, 'DELETE', '/v2/pods/nope::instances', []);
  t.equal(noPod.status, 404);
});

t.test("DELETE ::instances/{id}: agentInfo carries the agent's attributes as RAML AgentAttributes (issue 15.3)", async (t) => {
  const api = podApi(t);
  await createPod(api);
  launch(api, makeOffer({ agent: { hostname: 'h2', zone: 'z1', attributes: { rack: 'r1', level: 2.5, slots: [[3, 4]], disks: ['ssd'] } } }));
  const res = await send(api.app, 'DELETE', `/v2/pods/p::instances/${onlyInstanceId(api)}`);
  t.equal(res.status, 200);
  t.same((res.json as { agentInfo: unknown }).agentInfo, {
    host: 'h2', agentId: 'agent-h2', zone: 'z1',
    attributes: [{ name: 'rack', text: 'r1' }, { name: 'level', scalar: 2.5 }, { name: 'slots', ranges: [{ begin: 3, end: 4 }] }, { name: 'disks', set: ['ssd'] }],
  });
});
