import t from 'tap';
import { makeApi } from '../api-fixture';
import { appTasksJson, taskJson, taskStateOf } from '../../../src/api/render/task-json';
import { CONDITIONS, type Condition } from '../../../src/scheduler/model/condition';
import { Instance, type Task, type InstanceFields } from '../../../src/scheduler/model/instance';
import type { ProbeRequest } from '../../../src/scheduler/ports/prober';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { launchRunning } from './tasks-fixture';

function makeTask(o: Partial<Task> = {}): Task {
  return { taskId: 'web.instance-1._app.1', condition: 'Running', hostPorts: [31001], resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, launchedAtMs: START_MS, ...o };
}

function makeInstance(task: Task, o: Partial<InstanceFields> = {}): Instance {
  return Instance.from({
    instanceId: 'web.instance-1', runSpecId: '/web', kind: 'app', runSpecVersion: 'v1', configVersion: 'v1', incarnation: 1,
    goal: 'Running', condition: task.condition, conditionSinceMs: START_MS, role: 'dev', agent: makeAgent({ hostname: 'h9' }),
    tasks: [task], ...o,
  });
}

t.test('taskStateOf: every condition has a Mesos state, staging for the Marathon-only ones', async (t) => {
  const expected: Partial<Record<Condition, string>> = {
    Scheduled: 'TASK_STAGING', Provisioned: 'TASK_STAGING', UnreachableInactive: 'TASK_UNREACHABLE', Gone: 'TASK_GONE',
    Killing: 'TASK_KILLING', Killed: 'TASK_KILLED', Error: 'TASK_ERROR', Unknown: 'TASK_UNKNOWN',
  };
  for (const c of CONDITIONS) {
    t.match(taskStateOf(c), /^TASK_[A-Z_]+$/, c);
    if (expected[c] !== undefined) t.equal(taskStateOf(c), expected[c], c);
  }
});

t.test('a terminal task: ports [] and no stagedAt/startedAt/version (fact 40)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const task = makeTask({ condition: 'Killed', state: 'TASK_KILLED', startedAtMs: START_MS + 1 });
  const json = taskJson(fx.deps, makeInstance(task), task);
  t.same(json, {
    appId: '/web', id: task.taskId, host: 'h9', slaveId: 'agent-h9', state: 'TASK_KILLED', ports: [], ipAddresses: [],
    servicePorts: [], healthCheckResults: [], localVolumes: [], role: 'dev',
  });
});

t.test('an instance without placement has null host and slaveId', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const task = makeTask({ condition: 'Provisioned' });
  const json = taskJson(fx.deps, makeInstance(task, { agent: undefined }), task);
  t.equal(json.host, null);
  t.equal(json.slaveId, null);
  t.equal(json.state, 'TASK_STAGING');
});

t.test('appTasksJson: launched instances only, servicePorts always []', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.put(makeApp({ id: '/web', instances: 2, hostPorts: [0], portDefinitions: [{ port: 10005, protocol: 'tcp', labels: {} }] }));
  t.same(appTasksJson(fx.deps, '/web'), [], 'scheduled instances have no task yet');
  // Room for one instance only (0.1 cpus each): one launched, one still waiting.
  const [launched] = fx.harness.offer(makeOffer({ cpus: 0.15 }));
  const json = appTasksJson(fx.deps, '/web');
  t.same(json.map((x) => x.id), [launched.taskId]);
  t.same(json[0].servicePorts, []);
  t.same(appTasksJson(fx.deps, '/nope'), [], 'unknown app');
});

t.test('pod tasks: one per container, no service ports', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  launchRunning(fx, makePod({ id: '/pod', containers: [{ name: 'a' }, { name: 'b' }] }));
  const json = appTasksJson(fx.deps, '/pod');
  t.equal(json.length, 2);
  t.same(json.map((x) => x.state), ['TASK_RUNNING', 'TASK_RUNNING']);
  t.same(json.map((x) => x.servicePorts), [[], []]);
});

t.test('healthCheckResults: one entry per scheduler-run check with a counted result (fact 40)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const app = makeApp({
    id: '/web', hostPorts: [0],
    healthChecks: [
      makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, maxConsecutiveFailures: 0 }),
      makeHealthCheck({ protocol: 'COMMAND', command: 'true' }),
      makeHealthCheck({ protocol: 'TCP', gracePeriodMs: 0, intervalMs: 10_000 }),
    ],
  });
  const [launched] = launchRunning(fx, app);
  const instance = fx.harness.scheduler.instance(launched.instanceId) as Instance;
  const results = (): unknown => taskJson(fx.deps, instance, instance.tasks[0]).healthCheckResults;
  t.same(results(), [], 'no counted result yet');
  const [http, tcp] = fx.harness.prober.requests;
  const firstMs = fx.harness.nowMs;
  fx.harness.probe(http.probeId, { httpStatus: 200 });
  t.same(results(), [
    { instanceId: instance.instanceId, alive: true, consecutiveFailures: 0, firstSuccess: iso(firstMs), lastSuccess: iso(firstMs) },
  ], 'the TCP check has no result yet; the COMMAND check is agent-run');
  fx.harness.advance(10_000);
  const second = fx.harness.prober.requests.filter((r) => r.checkIndex === 0).at(-1) as ProbeRequest;
  fx.harness.probe(second.probeId, { httpStatus: 500 });
  fx.harness.probe(tcp.probeId, { connected: true });
  t.same(results(), [
    {
      instanceId: instance.instanceId, alive: false, consecutiveFailures: 1, firstSuccess: iso(firstMs), lastSuccess: iso(firstMs),
      lastFailure: iso(firstMs + 10_000), lastFailureCause: 'HTTP 500',
    },
    { instanceId: instance.instanceId, alive: true, consecutiveFailures: 0, firstSuccess: iso(firstMs + 10_000), lastSuccess: iso(firstMs + 10_000) },
  ]);
});

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
