import t from 'tap';
import { podContainerStatusJson, type ContainerView } from '../../../src/api/render/pod-container-status-json';
import { instanceState, type PodInstanceState } from '../../../src/api/render/pod-instance-status-json';
import { podInstanceJson } from '../../../src/api/render/pod-instance-json';
import type { Condition } from '../../../src/scheduler/model/condition';
import type { HealthCheckSpec } from '../../../src/scheduler/model/health-check';
import { Instance, type Task, type InstanceFields } from '../../../src/scheduler/model/instance';
import type { PodContainer } from '../../../src/scheduler/model/pod';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import { START_MS } from '../../harness/core-harness';
import { makeAgent } from '../../builders/cluster-builders';

const T0 = new Date(START_MS).toISOString();
const T5 = new Date(START_MS + 5000).toISOString();

function makeTask(over: Partial<Task> = {}): Task {
  return {
    taskId: 'p.instance-1.c',
    containerName: 'c',
    state: 'TASK_RUNNING',
    condition: 'Running',
    hostPorts: [31001],
    resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 },
    launchedAtMs: START_MS,
    ...over,
  };
}

function makeCheck(protocol: HealthCheckSpec['protocol'], endpoint?: string): HealthCheckSpec {
  return {
    protocol, endpoint, gracePeriodMs: 300_000, intervalMs: 60_000, timeoutMs: 20_000, maxConsecutiveFailures: 3,
    delayMs: 2000, path: '/', ignoreHttp1xx: false, ipProtocol: 'IPv4', form: 'pod',
  };
}

function makeContainer(over: Partial<PodContainer> = {}): PodContainer {
  return {
    name: 'c',
    resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 },
    endpoints: [{ name: 'web', hostPort: 0, protocol: ['tcp'], labels: {}, networkNames: [] }, { name: 'side', protocol: ['tcp'], labels: {}, networkNames: [] }],
    env: {},
    envSecrets: {},
    volumeMounts: [],
    artifacts: [],
    labels: {},
    ...over,
  };
}

/** `container: null` = a container the pod version does not define. */
function view(task: Partial<Task> = {}, container: Partial<PodContainer> | null = {}, resident = false): ContainerView {
  return { task: makeTask(task), container: container === null ? undefined : makeContainer(container), resident };
}

t.test('a running container: status, times, endpoints with the allocated port or null, resources', async (t) => {
  const json = podContainerStatusJson(view({ startedAtMs: START_MS + 5000, lastStatusMs: START_MS + 7000 }));
  t.strictSame(json, {
    name: 'c',
    status: 'TASK_RUNNING',
    statusSince: T5,
    containerId: 'p.instance-1.c',
    endpoints: [{ name: 'web', allocatedHostPort: 31001 }, { name: 'side', allocatedHostPort: null }],
    conditions: [],
    resources: { cpus: 0.1, mem: 32, disk: 0, gpus: 0 },
    lastUpdated: new Date(START_MS + 7000).toISOString(),
    lastChanged: T5,
  });
});

interface ContainerCase {
  readonly name: string;
  readonly view: ContainerView;
  readonly status: TaskState;
  readonly hasResources: boolean;
  readonly endpoints: number;
  readonly termination?: string;
}

const containerCases: readonly ContainerCase[] = [
  { name: 'launched, no update yet', view: view({ state: undefined, condition: 'Provisioned' }), status: 'TASK_STAGING', hasResources: false, endpoints: 2 },
  { name: 'staging', view: view({ state: 'TASK_STAGING', condition: 'Staging' }), status: 'TASK_STAGING', hasResources: true, endpoints: 2 },
  { name: 'killing', view: view({ state: 'TASK_KILLING', condition: 'Killing' }), status: 'TASK_KILLING', hasResources: true, endpoints: 2 },
  { name: 'unreachable', view: view({ state: 'TASK_UNREACHABLE', condition: 'Unreachable' }), status: 'TASK_UNREACHABLE', hasResources: true, endpoints: 2 },
  {
    name: 'failed with a message',
    view: view({ state: 'TASK_FAILED', condition: 'Failed', message: 'exit 3' }),
    status: 'TASK_FAILED', hasResources: false, endpoints: 0, termination: 'exit 3',
  },
  { name: 'killed, resident: keeps its reservation', view: view({ state: 'TASK_KILLED', condition: 'Killed' }, {}, true), status: 'TASK_KILLED', hasResources: true, endpoints: 0 },
  { name: 'container unknown to the spec version', view: view({}, null), status: 'TASK_RUNNING', hasResources: false, endpoints: 0 },
];

for (const c of containerCases) {
  t.test(`container: ${c.name}`, async (t) => {
    const json = podContainerStatusJson(c.view);
    t.equal(json.status, c.status);
    t.equal(json.resources !== null, c.hasResources);
    t.equal((json.endpoints as unknown[]).length, c.endpoints);
    t.strictSame(json.termination, c.termination === undefined ? undefined : { message: c.termination });
  });
}

interface HealthCase {
  readonly name: string;
  readonly condition: Condition;
  readonly check?: HealthCheckSpec;
  readonly healthy?: boolean;
  readonly resident?: boolean;
  /** undefined: no condition at all. */
  readonly value?: 'true' | 'false';
  readonly reported?: boolean;
}

const healthCases: readonly HealthCase[] = [
  { name: 'no check: no condition', condition: 'Running' },
  { name: 'http check, not started yet', condition: 'Starting', check: makeCheck('MESOS_HTTP', 'web') },
  { name: 'http check, no result', condition: 'Running', check: makeCheck('MESOS_HTTP', 'web'), value: 'false', reported: false },
  { name: 'http check, healthy', condition: 'Running', check: makeCheck('MESOS_HTTP', 'web'), healthy: true, value: 'true', reported: true },
  { name: 'tcp check, unhealthy', condition: 'Running', check: makeCheck('MESOS_TCP', 'web'), healthy: false, value: 'false', reported: true },
  { name: 'exec check, healthy', condition: 'Running', check: makeCheck('COMMAND'), healthy: true, value: 'true', reported: true },
  { name: 'http check on an ended task: no endpoint, unreported', condition: 'Killed', check: makeCheck('MESOS_HTTP', 'web'), healthy: true, value: 'false', reported: false },
  { name: 'ended task of a resident pod: no condition', condition: 'Killed', check: makeCheck('COMMAND'), healthy: true, resident: true },
];

for (const c of healthCases) {
  t.test(`health: ${c.name}`, async (t) => {
    const json = podContainerStatusJson(view({ condition: c.condition, healthy: c.healthy }, { healthCheck: c.check }, c.resident));
    const conditions = json.conditions as Record<string, unknown>[];
    if (c.value === undefined) {
      t.strictSame(conditions, []);
      return;
    }
    t.strictSame(conditions, [{
      name: 'healthy',
      value: c.value,
      reason: c.reported === true ? 'health-reported-by-mesos' : 'health-unreported-by-mesos',
      lastChanged: T0,
      lastUpdated: T0,
    }]);
  });
}

function makeInstance(condition: Condition, over: Partial<InstanceFields> = {}): Instance {
  return Instance.from({
    instanceId: 'p.instance-1', runSpecId: '/p', kind: 'pod', runSpecVersion: T0, configVersion: T0, incarnation: 1,
    goal: 'Running', condition, conditionSinceMs: START_MS, role: '*', tasks: [], ...over,
  });
}

const stateCases: readonly [Condition, PodInstanceState][] = [
  ['Scheduled', 'PENDING'], ['Provisioned', 'PENDING'], ['Staging', 'STAGING'], ['Starting', 'STAGING'],
  ['Running', 'STABLE'], ['Killing', 'TERMINAL'], ['Killed', 'TERMINAL'], ['Finished', 'TERMINAL'], ['Failed', 'TERMINAL'],
  ['Error', 'TERMINAL'], ['Gone', 'TERMINAL'], ['Dropped', 'TERMINAL'], ['Unknown', 'TERMINAL'],
  ['Unreachable', 'DEGRADED'], ['UnreachableInactive', 'DEGRADED'],
];

t.test('instance state from the instance condition (fact 81)', async (t) => {
  for (const [condition, state] of stateCases) t.equal(instanceState(makeInstance(condition), []).status, state, condition);
  const unhealthy = [{ conditions: [{ name: 'healthy', value: 'false' }] }];
  t.equal(instanceState(makeInstance('Running'), unhealthy).status, 'DEGRADED');
  t.equal(instanceState(makeInstance('Running'), [{ conditions: [{ name: 'healthy', value: 'true' }] }]).status, 'STABLE');
});

t.test('the Instance object of kill answers (fact 87)', async (t) => {
  const placed = makeInstance('Running', {
    agent: makeAgent({ hostname: 'h', zone: 'z' }), startedAtMs: START_MS + 5000, healthy: true, goal: 'Decommissioned',
  });
  t.strictSame(podInstanceJson(placed, { kind: 'enabled', inactiveAfterMs: 900_000, expungeAfterMs: 604_800_000 }), {
    instanceId: 'p.instance-1',
    state: { condition: 'Running', since: T0, activeSince: T5, healthy: true, goal: 'Decommissioned' },
    agentInfo: { host: 'h', agentId: 'agent-h', zone: 'z', attributes: [] },
    runSpecVersion: T0,
    unreachableStrategy: { inactiveAfterSeconds: 900, expungeAfterSeconds: 604800 },
  });
  t.strictSame(podInstanceJson(makeInstance('Scheduled'), { kind: 'disabled' }), {
    instanceId: 'p.instance-1',
    state: { condition: 'Scheduled', since: T0, goal: 'Running' },
    runSpecVersion: T0,
    unreachableStrategy: 'disabled',
  });
});
