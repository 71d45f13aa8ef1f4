import t from 'tap';
import { OfferResourceLedger } from '../../../../src/cluster/mesos/translate/offer-resource-ledger';
import { splitAllocation } from '../../../../src/cluster/mesos/translate/split-allocation';
import type { OfferedPool } from '../../../../src/scheduler/model/offer';
import { scalars } from '../../../builders/run-spec-builders';
import { makeMesosOffer, portsResource, scalarResource } from './mesos-builders';

function pool(o: Partial<OfferedPool>): OfferedPool {
  return { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [], ...o };
}

t.test('ledger: ports carved across offered ranges and resources, gpus whole, leftovers remembered', async (t) => {
  const offer = makeMesosOffer({
    resources: [
      portsResource([[100, 102], [200, 201]], { role: '*' }),
      portsResource([[103, 104]], { role: '*' }),
      scalarResource('gpus', 2, { role: '*' }),
    ],
  });
  const ledger = new OfferResourceLedger(offer);
  t.strictSame(ledger.take([pool({ ports: [[101, 104]], gpus: 1 })]), [
    { name: 'gpus', type: 'SCALAR', scalar: { value: 1 }, role: '*', allocationInfo: { role: '*' } },
    { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 101, end: 102 }] }, role: '*', allocationInfo: { role: '*' } },
    { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 103, end: 104 }] }, role: '*', allocationInfo: { role: '*' } },
  ], 'one port range taken from two offered resources');
  t.throws(() => ledger.take([pool({ ports: [[102, 102]] })]), /port 102 not offered/, 'a port cannot be taken twice');
  t.throws(() => ledger.take([pool({ gpus: 2 })]), /gpus missing/, 'only one gpu is left');
  t.strictSame(ledger.take([pool({ ports: [[100, 100], [200, 201]] })]).map((r) => r.ranges), [{ range: [{ begin: 100, end: 100 }, { begin: 200, end: 201 }] }]);
  t.throws(() => ledger.take([pool({ reservedFor: 'db', cpusMilli: 1 })]), /cpus missing for role db/);
});

t.test('split: executor first, ports with the pool that holds them', async (t) => {
  const allocation = [
    pool({ reservedFor: 'r', cpusMilli: 300, memMilli: 64_000, ports: [[5, 5]] }),
    pool({ cpusMilli: 1000, memMilli: 64_000, ports: [[7, 7]] }),
  ];
  const shares = splitAllocation(allocation, [
    { resources: scalars({ cpus: 0.1, mem: 32 }), hostPorts: [] },
    { resources: scalars({ cpus: 1, mem: 64 }), hostPorts: [7, 5] },
    { resources: scalars({ cpus: 0.2, mem: 32 }), hostPorts: [] },
  ]);
  t.strictSame(shares, [
    [{ reservedFor: 'r', cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0, ports: [] }],
    [
      { reservedFor: 'r', cpusMilli: 200, memMilli: 32_000, diskMilli: 0, gpus: 0, ports: [[5, 5]] },
      { cpusMilli: 800, memMilli: 32_000, diskMilli: 0, gpus: 0, ports: [[7, 7]] },
    ],
    [{ cpusMilli: 200, memMilli: 32_000, diskMilli: 0, gpus: 0, ports: [] }],
  ]);
  t.throws(() => splitAllocation(allocation, [{ resources: scalars({ cpus: 2 }), hostPorts: [] }]), /lacks 700 cpusMilli/);
  t.throws(() => splitAllocation(allocation, [{ resources: scalars({}), hostPorts: [9] }]), /host port 9 is not in the allocation/);
});

t.test('ledger: a role\'s pool never draws on dynamic reservations that are not this framework\'s', async (t) => {
  const foreign = { principal: 'other', labels: { labels: [{ key: 'marathon_framework_id', value: 'F2' }, { key: 'marathon_task_id', value: 'x' }] } };
  const cases: { name: string; offered: ReturnType<typeof scalarResource>[] }[] = [
    { name: 'pre-refinement, labelled by another framework', offered: [scalarResource('cpus', 0.5, { role: 'web' }), scalarResource('cpus', 2, { role: 'web', reservation: foreign })] },
    { name: 'pre-refinement, no labels', offered: [scalarResource('cpus', 0.5, { role: 'web' }), scalarResource('cpus', 2, { role: 'web', reservation: { principal: 'ops' } })] },
    { name: 'post-refinement DYNAMIC', offered: [scalarResource('cpus', 0.5, { reservations: [{ type: 'STATIC', role: 'web' }] }), scalarResource('cpus', 2, { reservations: [{ type: 'DYNAMIC', role: 'web', ...foreign }] })] },
  ];
  for (const c of cases) {
    const ledger = new OfferResourceLedger(makeMesosOffer({ resources: c.offered }), 'F1');
    t.throws(() => ledger.take([pool({ reservedFor: 'web', cpusMilli: 1000 })]), /0\.5 cpus missing for role web/, c.name);
  }
});
