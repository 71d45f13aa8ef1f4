import t from 'tap';
import type { LaunchOperation } from '../../../../src/scheduler/model/launch';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeContainer, makeEndpoint, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

const twoContainers = () => makePod({
  containers: [
    makeContainer({ name: 'web', cpus: 0.5, mem: 64, endpoints: [makeEndpoint({ name: 'http', hostPort: 0 }), makeEndpoint({ name: 'admin', hostPort: 9000 })] }),
    makeContainer({ name: 'side', cpus: 0.5, mem: 64, disk: 5, endpoints: [makeEndpoint({ name: 'metrics', hostPort: 0 }), makeEndpoint({ name: 'internal', containerPort: 80 })] }),
  ],
});

function group(op: LaunchOperation): Extract<LaunchOperation, { kind: 'launchGroup' }> {
  if (op.kind !== 'launchGroup') throw new Error(`expected launchGroup, got ${op.kind}`);
  return op;
}

t.test('pod executor overhead is part of what an instance needs', async (t) => {
  // Containers need 1.0 cpus, 128 MiB, 5 MiB disk; the executor adds 0.1 cpus, 32 MiB, 10 MiB disk.
  const cases: [string, Parameters<typeof makeOffer>[0], string | undefined][] = [
    ['exact fit', { cpus: 1.1, mem: 160, disk: 15, ports: [[9000, 9002]] }, undefined],
    ['cpus without the executor share', { cpus: 1.0, mem: 1000, disk: 100, ports: [[9000, 9002]] }, 'InsufficientCpus'],
    ['mem without the executor share', { cpus: 2, mem: 128, disk: 100, ports: [[9000, 9002]] }, 'InsufficientMemory'],
    ['disk without the executor share', { cpus: 2, mem: 1000, disk: 5, ports: [[9000, 9002]] }, 'InsufficientDisk'],
    ['fixed endpoint port missing', { cpus: 2, mem: 1000, disk: 100, ports: [[31000, 31010]] }, 'InsufficientPorts'],
    ['three host ports needed, two offered', { cpus: 2, mem: 1000, disk: 100, ports: [[9000, 9001]] }, 'InsufficientPorts'],
  ];
  for (const [name, offer, reason] of cases) {
    const h = new Harness();
    h.put(twoContainers());
    const launched = h.offer(makeOffer(offer));
    if (reason === undefined) t.equal(launched.length, 2, `${name}: both tasks launched`);
    else {
      t.same(launched, [], `${name}: nothing launched`);
      t.same(h.scheduler.rejections('/pod')?.byReason(), { [reason]: 1 }, `${name}: ${reason}`);
    }
  }
});

t.test('a pod instance is one LAUNCH_GROUP on one agent with its executor', async (t) => {
  const h = new Harness();
  h.put(twoContainers());
  const launched = h.offer(makeOffer({ agent: { hostname: 'h1' }, ports: [[9000, 9000], [31000, 31010]] }));
  const [inst] = h.instances('/pod');
  const [accept] = h.calls('accept');
  t.equal(accept.operations.length, 1);
  const op = group(accept.operations[0]);
  t.equal(op.executorId, `instance-${inst.instanceId}`);
  t.same(op.executorResources, { cpusMilli: 100, memMilli: 32_000, diskMilli: 10_000, gpus: 0 });
  t.same(op.tasks.map((x) => [x.taskId, x.containerName, x.agentId, x.hostPorts]), [
    [`${inst.instanceId}.web.1`, 'web', 'agent-h1', [31000, 9000]],
    [`${inst.instanceId}.side.1`, 'side', 'agent-h1', [31001]],
  ], 'per-container tasks; endpoint ports in order; containerPort-only endpoints take no host port');
  t.same(op.tasks.map((x) => x.resources), [
    { cpusMilli: 500, memMilli: 64_000, diskMilli: 0, gpus: 0 },
    { cpusMilli: 500, memMilli: 64_000, diskMilli: 5000, gpus: 0 },
  ]);
  t.same(op.allocation.map((p) => [p.cpusMilli, p.memMilli, p.diskMilli]), [[1100, 160_000, 15_000]], 'allocation includes the executor');
  t.equal(launched.length, 2);
  t.same(inst.tasks.map((x) => x.condition), ['Provisioned', 'Provisioned']);
  t.equal(inst.condition, 'Provisioned');
});

t.test('a pod instance is never split across agents', async (t) => {
  const h = new Harness();
  h.put(makePod({ containers: [{ name: 'a', cpus: 0.5 }, { name: 'b', cpus: 0.5 }] }));
  // Together the two offers would fit (1.2 cpus); each alone does not (1.1 needed).
  t.same(h.offer(makeOffer({ agent: { hostname: 'h1' }, cpus: 0.6 }), makeOffer({ agent: { hostname: 'h2' }, cpus: 0.6 })), []);
  t.same(h.scheduler.rejections('/pod')?.byReason(), { InsufficientCpus: 2 });
  t.equal(h.calls('accept').length, 0);
  t.same(h.calls('decline')[0].offerIds.length, 2);
});

t.test('several pod instances per offer each pay the executor overhead', async (t) => {
  const h = new Harness();
  h.put(makePod({ instances: 3, containers: [{ name: 'a', cpus: 0.4 }] }));
  const launched = h.offer(makeOffer({ cpus: 1.0 }));
  t.equal(launched.length, 2, '2 × 0.5 cpus fit, not 3');
  t.equal(h.calls('accept')[0].operations.length, 2);
});

t.test('a relaunched pod instance gets a fresh executor id per incarnation (issue 15.1)', async (t) => {
  const h = new Harness();
  h.put(makePod({ containers: [{ name: 'a' }, { name: 'b' }], backoff: { initialMs: 1000, factor: 1, maxMs: 1000 } }));
  const first = h.offer(makeOffer({ agent: { hostname: 'h1' } }));
  h.run(first);
  const [inst] = h.instances('/pod');
  h.status(first[0].taskId, 'TASK_FAILED');
  h.status(first[1].taskId, 'TASK_KILLED');
  h.advance(1000);
  h.clearRecords();
  const second = h.offer(makeOffer({ agent: { hostname: 'h1' } }));
  t.equal(second.length, 2, 'the same instance is launched again');
  t.equal(h.instances('/pod')[0]?.instanceId, inst.instanceId);
  const [accept] = h.calls('accept');
  const executorIds = [`instance-${inst.instanceId}`, group(accept.operations[0]).executorId];
  t.equal(executorIds[1], `instance-${inst.instanceId}.2`, 'the second incarnation has its own executor');
  t.not(executorIds[0], executorIds[1]);
});
