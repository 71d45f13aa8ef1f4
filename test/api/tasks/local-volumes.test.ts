import t from 'tap';
import { makeApi } from '../api-fixture';
import { taskText } from '../../../src/api/render/task-json';
import { Instance, type Task } from '../../../src/scheduler/model/instance';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';
import { START_MS } from '../../harness/core-harness';

/*
 * `localVolumes` of a resident task (`/v2/apps/{id}/tasks`, `/v2/tasks`) and of a resident pod
 * instance (`::status`): Marathon 1.11 writes the instance's reservation's volume ids there
 * (raml/TaskConversion.scala, raml/PodStatusConversion.scala), each a LocalVolumeId
 * `{runSpecId, containerPath, uuid, persistenceId}` in that order (types/localVolumes.raml,
 * raml/LocalVolumeConversion.scala); an instance without a reservation writes `[]`.
 */

const big = () => makeOffer({ agent: makeAgent({ hostname: 'a' }), cpus: 4, mem: 4096, disk: 4096 });

async function inject(app: ReturnType<typeof makeApi>['app'], method: 'GET' | 'POST', url: string, payload?: object): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await app.inject({ method, url, ...(payload !== undefined ? { payload } : {}) });
  return { status: res.statusCode, json: res.json() as Record<string, unknown> };
}

t.test('a resident app task lists its persistent volumes, in Marathon\'s shape', async (t) => {
  const fx = makeApi({ config: { defaultRole: 'db' } });
  t.teardown(() => fx.app.close());
  const created = await inject(fx.app, 'POST', '/v2/apps', {
    id: '/db', cmd: 'sleep 1000', cpus: 0.5, mem: 64,
    container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 100 } }, { containerPath: 'logs', mode: 'RW', persistent: { size: 10 } }] },
  });
  t.equal(created.status, 201, 'created');
  const [task] = fx.harness.offer(big());
  fx.harness.run(task);
  const uuid = task.instanceId.slice(task.instanceId.indexOf('.instance-') + '.instance-'.length);
  const want = [
    { runSpecId: '/db', containerPath: 'data', uuid, persistenceId: `${task.instanceId}#vol0` },
    { runSpecId: '/db', containerPath: 'logs', uuid, persistenceId: `${task.instanceId}#vol1` },
  ];
  const listed = (await inject(fx.app, 'GET', '/v2/apps/db/tasks')).json.tasks as Record<string, unknown>[];
  t.strictSame(listed[0].localVolumes, want, '/v2/apps/{id}/tasks');
  t.strictSame(Object.keys((listed[0].localVolumes as object[])[0]), ['runSpecId', 'containerPath', 'uuid', 'persistenceId'], 'Marathon\'s key order');
  const all = (await inject(fx.app, 'GET', '/v2/tasks')).json.tasks as Record<string, unknown>[];
  t.strictSame(all[0].localVolumes, want, '/v2/tasks');
  const app = (await inject(fx.app, 'GET', '/v2/apps/db')).json.app as { tasks: Record<string, unknown>[] };
  t.strictSame(app.tasks[0].localVolumes, want, '/v2/apps/{id} (embedded tasks)');
});

t.test('a task without a reservation writes [] (an app that is not resident)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.equal((await inject(fx.app, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 1000', cpus: 0.1, mem: 32 })).status, 201);
  fx.harness.run(fx.harness.offer(big()));
  const listed = (await inject(fx.app, 'GET', '/v2/apps/web/tasks')).json.tasks as Record<string, unknown>[];
  t.strictSame(listed[0].localVolumes, []);
});

t.test('the kept task text follows the instance\'s reservation (sameTaskInputs)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const task: Task = { taskId: 'db.instance-u1._app.1', condition: 'Running', hostPorts: [], resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, launchedAtMs: START_MS };
  const fields = {
    instanceId: 'db.instance-u1', runSpecId: '/db', kind: 'app' as const, runSpecVersion: 'v1', configVersion: 'v1', incarnation: 1,
    goal: 'Running' as const, condition: 'Running' as const, conditionSinceMs: START_MS, role: 'db', agent: makeAgent({ hostname: 'a' }), tasks: [task],
  };
  const without = Instance.from(fields);
  const reservation = { agentId: 'agent-a', role: 'db', volumes: [{ persistenceId: 'db.instance-u1#vol0', containerPath: 'data', diskMilli: 1000 }] };
  const withVolume = Instance.from({ ...fields, reservation });
  const volumesOf = (text: string): unknown => (JSON.parse(text) as { localVolumes: unknown }).localVolumes;
  t.strictSame(volumesOf(taskText(fx.deps, without, task, '[]')), [], 'rendered without a reservation');
  t.strictSame(volumesOf(taskText(fx.deps, withVolume, task, '[]')), [{ runSpecId: '/db', containerPath: 'data', uuid: 'u1', persistenceId: 'db.instance-u1#vol0' }], 'the same task, now with one: rendered again');
  t.strictSame(volumesOf(taskText(fx.deps, without, task, '[]')), [], 'and without again');
});

t.test('a resident pod instance\'s status lists its persistent volumes', async (t) => {
  const fx = makeApi({ config: { defaultRole: 'db' } });
  t.teardown(() => fx.app.close());
  const created = await inject(fx.app, 'POST', '/v2/pods', {
    id: '/p', scaling: { kind: 'fixed', instances: 1 },
    containers: [{ name: 'c', resources: { cpus: 0.1, mem: 32 }, exec: { command: { shell: 'sleep 1000' } }, volumeMounts: [{ name: 'pst', mountPath: 'pst' }] }],
    volumes: [{ name: 'pst', persistent: { size: 10 } }],
  });
  t.equal(created.status, 201, 'created');
  const launched = fx.harness.offer(big());
  fx.harness.run(launched);
  const instanceId = launched[0].instanceId;
  const uuid = instanceId.slice(instanceId.indexOf('.instance-') + '.instance-'.length);
  const status = (await inject(fx.app, 'GET', '/v2/pods/p::status')).json as { instances: Record<string, unknown>[] };
  t.strictSame(status.instances[0].localVolumes, [{ runSpecId: '/p', containerPath: 'pst', uuid, persistenceId: `${instanceId}#vol0` }]);
});
