import t from 'tap';
import type { InstanceFields, Task } from '../../../src/scheduler/model/instance';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import type { Condition } from '../../../src/scheduler/model/condition';
import { agentsOf } from '../../../src/whatif/take-fork';
import type { LastOffer } from '../../../src/whatif/last-offers';
import { makeAgent } from '../../builders/cluster-builders';

/**
 * A what-if fork's agents (src/whatif/take-fork.ts, `agentsOf`): each agent's last offer plus what
 * the instances there held when it was made — only tasks that still hold resources, nothing of
 * unreachable instances, and nothing free on an agent cut off by a partition.
 */

const AGENT = makeAgent({ agentId: 'agent-a', hostname: 'host-a' });
const OFFER_AT_MS = 10_000;

function offer(cpus: number, o: { unreachable?: true } = {}): LastOffer {
  return { agent: AGENT, atMs: OFFER_AT_MS, pools: [{ cpusMilli: cpus * 1000, memMilli: 1024_000, diskMilli: 0, gpus: 0, ports: [] }], ...o };
}

function task(n: number, launchedAtMs: number, state: TaskState | undefined = 'TASK_RUNNING'): Task {
  return {
    taskId: `t${n}`, containerName: undefined, state, condition: 'Running', hostPorts: [],
    resources: { cpusMilli: 500, memMilli: 64_000, diskMilli: 0, gpus: 0 }, healthy: undefined, launchedAtMs,
    startedAtMs: undefined, lastStatusMs: undefined, message: undefined,
  };
}

function instance(id: string, tasks: Task[], condition: Condition = 'Running', kind: 'app' | 'pod' = 'app'): InstanceFields {
  return {
    instanceId: id, runSpecId: '/x', kind, runSpecVersion: 'v', configVersion: 'v', incarnation: 1, goal: 'Running', condition,
    conditionSinceMs: 0, role: '*', agent: AGENT, tasks,
  };
}

const cases: { name: string; offers: LastOffer[]; instances: InstanceFields[]; cpus: number | undefined }[] = [
  { name: 'an instance launched before the offer held its share then: added', offers: [offer(1)], instances: [instance('a', [task(1, 5_000)])], cpus: 1.5 },
  { name: 'one launched from the offer or after took it from the offer: not added', offers: [offer(1)], instances: [instance('a', [task(1, 10_000)])], cpus: 1 },
  { name: 'an unreachable instance: the fork does not run it, so nothing of it', offers: [offer(1)], instances: [instance('a', [task(1, 5_000)], 'Unreachable')], cpus: 1 },
  { name: 'an agent cut off: nothing free, only what its reachable instances hold', offers: [offer(1, { unreachable: true })], instances: [instance('a', [task(1, 5_000)])], cpus: 0.5 },
  {
    name: 'a pod with one of its two tasks ended: only the running one (the ended one gave its share back)',
    offers: [offer(1)], instances: [instance('p', [task(1, 5_000), task(2, 5_000, 'TASK_FINISHED')], 'Running', 'pod')], cpus: 1.5,
  },
  { name: 'never offered: exactly full with what runs there', offers: [], instances: [instance('a', [task(1, 5_000)]), instance('b', [task(2, 6_000)])], cpus: 1 },
  { name: 'never offered, and only unreachable instances there: no agent', offers: [], instances: [instance('a', [task(1, 5_000)], 'Unreachable')], cpus: undefined },
];

t.test('agentsOf: capacity per agent from its last offer and what its instances hold', async (t) => {
  for (const c of cases) {
    const agents = agentsOf(c.offers, c.instances);
    const cpusMilli = agents.find((a) => a.info.agentId === 'agent-a')?.pools.reduce((n, p) => n + p.cpusMilli, 0);
    t.equal(cpusMilli === undefined ? undefined : cpusMilli / 1000, c.cpus, c.name);
  }
});
