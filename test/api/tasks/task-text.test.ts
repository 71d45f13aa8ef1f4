import t from 'tap';
import type { ApiDeps } from '../../../src/api/api-deps';
import { taskJson, taskStateOf, taskText } from '../../../src/api/render/task-json';
import { isActiveCondition } from '../../../src/scheduler/model/condition';
import { isoTime } from '../../../src/scheduler/index';
import type { AgentInfo } from '../../../src/scheduler/model/agent';
import type { Condition } from '../../../src/scheduler/model/condition';
import type { Instance, Task } from '../../../src/scheduler/model/instance';

/**
 * taskText (src/api/render/task-json.ts), kept per task, the one writer of a task's JSON: the same
 * bytes as the object Marathon writes (fact 40, {@link marathonTaskJson} below: the keys in
 * Marathon's order) serialized, for every shape a task can have — active or terminal, started or
 * not, with or without an agent, fault domain, ports, service ports, and strings JSON must escape;
 * and taskJson is that object.
 */

/** The oracle: Marathon's task object (fact 40) built field by field, in Marathon's key order, without health results. */
function marathonTaskJson(instance: Instance, task: Task, servicePorts: readonly number[]): Record<string, unknown> {
  const active = isActiveCondition(task.condition);
  const json: Record<string, unknown> = {
    appId: instance.runSpecId,
    id: task.taskId,
    host: instance.agent?.hostname ?? null,
    slaveId: instance.agent?.agentId ?? null,
    state: taskStateOf(task.condition),
    ports: active ? [...task.hostPorts] : [],
    ipAddresses: [],
    servicePorts: [...servicePorts],
    healthCheckResults: [],
    localVolumes: [],
    role: instance.role,
  };
  if (active) {
    json.stagedAt = isoTime(task.launchedAtMs);
    if (task.startedAtMs !== undefined) json.startedAt = isoTime(task.startedAtMs);
    json.version = instance.runSpecVersion;
  }
  if (instance.agent?.region !== undefined) json.region = instance.agent.region;
  if (instance.agent?.zone !== undefined) json.zone = instance.agent.zone;
  return json;
}

const deps = { scheduler: { healthChecks: () => undefined } } as unknown as ApiDeps;

interface Case {
  readonly name: string;
  readonly condition: Condition;
  readonly agent?: AgentInfo;
  readonly hostPorts?: readonly number[];
  readonly startedAtMs?: number;
  readonly servicePorts?: readonly number[];
  readonly appId?: string;
  readonly role?: string;
}

const AGENT: AgentInfo = { agentId: 'agent-1', hostname: 'host-1.example', attributes: [] };
const CASES: readonly Case[] = [
  { name: 'running, started, ports and service ports', condition: 'Running', agent: AGENT, hostPorts: [31000, 31001], startedAtMs: 1_700_000_001_234, servicePorts: [10000, 10001] },
  { name: 'staging, not started yet', condition: 'Staging', agent: AGENT, hostPorts: [31000] },
  { name: 'killing (active)', condition: 'Killing', agent: AGENT, startedAtMs: 1_700_000_002_000 },
  { name: 'finished (terminal: no ports, times, version)', condition: 'Finished', agent: AGENT, hostPorts: [31000], startedAtMs: 1_700_000_002_000 },
  { name: 'failed', condition: 'Failed', agent: AGENT },
  { name: 'unreachable inactive', condition: 'UnreachableInactive', agent: AGENT },
  { name: 'scheduled, no agent', condition: 'Scheduled' },
  { name: 'region and zone', condition: 'Running', agent: { ...AGENT, region: 'eu-1', zone: 'eu-1a' }, startedAtMs: 1_700_000_003_000 },
  { name: 'zone only', condition: 'Running', agent: { ...AGENT, zone: 'z"1' } },
  { name: 'strings to escape', condition: 'Running', agent: { ...AGENT, hostname: 'h\\o"st\u2028é' }, appId: '/we"ird\\app', role: 'sl"ave\n' },
  { name: 'a lone surrogate in the host name', condition: 'Running', agent: { ...AGENT, hostname: 'h\ud800st' } },
  { name: 'region only', condition: 'Staging', agent: { ...AGENT, region: 'r"1' } },
  { name: 'started in another second, on a whole second', condition: 'Running', agent: AGENT, startedAtMs: 1_700_000_009_000 },
  { name: 'launched and started in the same millisecond', condition: 'Starting', agent: AGENT, startedAtMs: 1_700_000_000_123 },
  { name: 'started at a fraction of a millisecond', condition: 'Running', agent: AGENT, startedAtMs: 1_700_000_004_005.7 },
  { name: 'started before 1970', condition: 'Running', agent: AGENT, startedAtMs: -1_234 },
  { name: 'started after the year 9999', condition: 'Running', agent: AGENT, startedAtMs: 253_402_300_800_001 },
];

t.test('taskText is Marathon\'s task object serialized byte for byte, first and kept; taskJson is that object', async (t) => {
  for (const c of CASES) {
    const task = {
      taskId: `${(c.appId ?? '/app').slice(1)}.instance-1._app.1`, condition: c.condition, hostPorts: c.hostPorts ?? [],
      launchedAtMs: 1_700_000_000_123, ...(c.startedAtMs === undefined ? {} : { startedAtMs: c.startedAtMs }),
    } as unknown as Task;
    const instance = {
      instanceId: 'app.instance-1', runSpecId: c.appId ?? '/app', runSpecVersion: '2026-01-01T00:00:00.000Z', role: c.role ?? '*',
      condition: c.condition, tasks: [task], ...(c.agent === undefined ? {} : { agent: c.agent }),
    } as unknown as Instance;
    const servicePorts = c.servicePorts ?? [];
    const expected = JSON.stringify(marathonTaskJson(instance, task, servicePorts));
    t.equal(taskText(deps, instance, task, JSON.stringify(servicePorts)), expected, `${c.name}: first`);
    t.equal(taskText(deps, instance, task, JSON.stringify(servicePorts)), expected, `${c.name}: kept`);
    t.equal(JSON.stringify(taskJson(deps, instance, task, { servicePorts })), expected, `${c.name}: the object, in the same key order`);
  }
});
