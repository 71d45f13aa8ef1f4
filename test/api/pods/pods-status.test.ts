import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { createPod, launch, list, podApi, podBody, send, T0, type J } from './pod-api-builders';

/** A container with a host-port endpoint checked over HTTP, and a second one without a host port. */
const CHECKED = {
  endpoints: [{ name: 'http', hostPort: 0 }, { name: 'admin', hostPort: 0 }],
  healthCheck: { http: { endpoint: 'http', path: '/health' } },
};

t.test('before any offer: the pod is DEGRADED with no instances (never-placed instances are hidden, fact 81)', async (t) => {
  const api = podApi(t);
  const created = await createPod(api);
  const res = await send(api.app, 'GET', '/v2/pods/p::status');
  t.equal(res.status, 200);
  t.strictSame(res.json, {
    id: '/p',
    spec: created.json,
    status: 'DEGRADED',
    statusSince: T0,
    instances: [],
    terminationHistory: [],
    lastUpdated: T0,
    lastChanged: T0,
  });
});

t.test('a launched instance is PENDING until its first update, then STAGING, then STABLE', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const [task] = api.harness.offer(makeOffer({ agent: { hostname: 'node-7', zone: 'z1', region: 'r1' } }));
  const instanceOf = async (): Promise<J> => (await send(api.app, 'GET', '/v2/pods/p::status')).json.instances[0];
  t.equal((await instanceOf()).status, 'PENDING');
  api.harness.advance(1000);
  api.harness.status(task.taskId, 'TASK_STAGING');
  const staging = await instanceOf();
  t.equal(staging.status, 'STAGING');
  t.equal(staging.containers[0].status, 'TASK_STAGING');
  api.harness.advance(1000);
  api.harness.status(task.taskId, 'TASK_RUNNING');
  const res = await send(api.app, 'GET', '/v2/pods/p::status');
  t.equal(res.json.status, 'STABLE');
  t.equal(res.json.statusSince, '2026-01-01T00:00:02.000Z');
  t.strictSame(res.json.instances[0], {
    id: task.instanceId,
    status: 'STABLE',
    statusSince: '2026-01-01T00:00:02.000Z',
    agentHostname: 'node-7',
    agentId: 'agent-node-7',
    agentRegion: 'r1',
    agentZone: 'z1',
    // Fact 81: the default executor's 0.1/32/10 plus the running container's 0.1/32/0.
    resources: { cpus: 0.2, mem: 64, disk: 10, gpus: 0 },
    networks: [],
    containers: [{
      name: 'c',
      status: 'TASK_RUNNING',
      statusSince: '2026-01-01T00:00:02.000Z',
      containerId: task.taskId,
      endpoints: [],
      conditions: [],
      resources: { cpus: 0.1, mem: 32, disk: 0, gpus: 0 },
      lastUpdated: '2026-01-01T00:00:02.000Z',
      lastChanged: '2026-01-01T00:00:02.000Z',
    }],
    specReference: `/v2/pods/p::versions/${T0}`,
    localVolumes: [],
    lastUpdated: '2026-01-01T00:00:02.000Z',
    lastChanged: '2026-01-01T00:00:02.000Z',
    role: '*',
  });
});

t.test('endpoints carry allocated host ports; the health condition follows the agent-reported result', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({}, CHECKED));
  const [task] = launch(api);
  const container = async (): Promise<J> => (await send(api.app, 'GET', '/v2/pods/p::status')).json.instances[0].containers[0];

  const unreported = await container();
  t.strictSame(unreported.endpoints, [
    { name: 'http', allocatedHostPort: task.hostPorts[0] },
    { name: 'admin', allocatedHostPort: task.hostPorts[1] },
  ]);
  t.match(unreported.conditions, [{ name: 'healthy', value: 'false', reason: 'health-unreported-by-mesos' }]);
  const degraded = (await send(api.app, 'GET', '/v2/pods/p::status')).json;
  t.equal(degraded.instances[0].status, 'DEGRADED', 'no health result yet: not STABLE');
  t.equal(degraded.status, 'DEGRADED');

  api.harness.status(task.taskId, 'TASK_RUNNING', { healthy: true });
  const healthy = await container();
  t.strictSame(healthy.endpoints[0], { name: 'http', allocatedHostPort: task.hostPorts[0], healthy: true });
  t.match(healthy.conditions, [{ name: 'healthy', value: 'true', reason: 'health-reported-by-mesos' }]);
  t.equal((await send(api.app, 'GET', '/v2/pods/p::status')).json.status, 'STABLE');

  api.harness.status(task.taskId, 'TASK_RUNNING', { healthy: false });
  const unhealthy = (await send(api.app, 'GET', '/v2/pods/p::status')).json;
  t.equal(unhealthy.instances[0].status, 'DEGRADED');
  t.equal(typeof unhealthy.instances[0].message, 'string');
});

t.test('an exec health check reports through the task health (fact 81)', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({}, { healthCheck: { exec: { command: { shell: 'true' } } } }));
  const [task] = launch(api);
  api.harness.status(task.taskId, 'TASK_RUNNING', { healthy: true });
  const container = (await send(api.app, 'GET', '/v2/pods/p::status')).json.instances[0].containers[0];
  t.match(container.conditions, [{ name: 'healthy', value: 'true', reason: 'health-reported-by-mesos' }]);
});

t.test('an unreachable instance is DEGRADED with a message (fact 81)', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const [task] = launch(api);
  api.harness.status(task.taskId, 'TASK_UNREACHABLE');
  const inst = (await send(api.app, 'GET', '/v2/pods/p::status')).json.instances[0];
  t.equal(inst.status, 'DEGRADED');
  t.equal(inst.message, 'pod instance has become unreachable');
  t.equal(inst.containers[0].status, 'TASK_UNREACHABLE');
});

t.test('several containers: resources add up; the instance is STABLE once all run', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({
    containers: [
      { name: 'a', resources: { cpus: 0.25, mem: 64 } },
      { name: 'b', resources: { cpus: 0.5, mem: 128, disk: 5 } },
    ],
  }));
  const launched = launch(api);
  t.equal(launched.length, 2);
  const res = (await send(api.app, 'GET', '/v2/pods/p::status')).json;
  t.equal(res.status, 'STABLE');
  t.strictSame(res.instances[0].resources, { cpus: 0.85, mem: 224, disk: 15, gpus: 0 });
  t.strictSame(list(res.instances[0].containers).map((c) => c.name), ['a', 'b']);
});

t.test('rule 13: during a redeployment the status reports the previous spec; afterwards the new one', async (t) => {
  const api = podApi(t);
  const created = await createPod(api);
  const [oldTask] = launch(api);
  api.harness.advance(1000);
  const put = await send(api.app, 'PUT', '/v2/pods/p', podBody({ labels: { v: '2' } }));
  const [newTask] = launch(api);
  const during = (await send(api.app, 'GET', '/v2/pods/p::status')).json;
  t.strictSame(during.spec, created.json, 'previous spec');
  const refs = list(during.instances).map((i) => String(i.specReference));
  t.ok(refs.includes(`/v2/pods/p::versions/${String(created.json.version)}`), 'the old instance points at its version');
  api.harness.status(oldTask.taskId, 'TASK_KILLED');
  const after = (await send(api.app, 'GET', '/v2/pods/p::status')).json;
  t.strictSame(after.spec, put.json);
  t.equal(after.status, 'STABLE');
  t.strictSame(list(after.instances).map((i) => i.id), [newTask.instanceId]);
  t.equal(after.instances[0].specReference, `/v2/pods/p::versions/${String(put.json.version)}`);
});

t.test('GET /v2/pods/::status: every pod; a pod being deleted is TERMINAL until its instances are gone', async (t) => {
  const api = podApi(t);
  t.strictSame((await send(api.app, 'GET', '/v2/pods/::status')).json, []);
  await createPod(api, podBody({ id: '/a' }));
  const [task] = launch(api);
  await createPod(api, podBody({ id: '/b', scaling: { kind: 'fixed', instances: 0 } }));
  const all = (await send(api.app, 'GET', '/v2/pods/::status')).json;
  t.strictSame(list(all).map((s) => [s.id, s.status]), [['/a', 'STABLE'], ['/b', 'STABLE']]);

  await send(api.app, 'DELETE', '/v2/pods/a');
  const deleting = list((await send(api.app, 'GET', '/v2/pods/::status')).json);
  t.strictSame(deleting.map((s) => [s.id, s.status]), [['/a', 'TERMINAL'], ['/b', 'STABLE']]);
  t.equal((await send(api.app, 'GET', '/v2/pods/a::status')).json.status, 'TERMINAL');

  api.harness.status(task.taskId, 'TASK_KILLED');
  t.strictSame(list((await send(api.app, 'GET', '/v2/pods/::status')).json).map((s) => s.id), ['/b']);
  t.equal((await send(api.app, 'GET', '/v2/pods/a::status')).status, 404);
});
