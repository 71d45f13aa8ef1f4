import t from 'tap';
import type { PortRange } from '../../../../src/scheduler/model/resources';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

t.test('host ports: fixed, dynamic, requirePorts and shortfalls', async (t) => {
  const cases: { name: string; hostPorts: number[]; requirePorts?: boolean; ranges: PortRange[]; expect: number[] | 'InsufficientPorts' }[] = [
    { name: 'no ports needed, none offered', hostPorts: [], ranges: [], expect: [] },
    { name: 'one dynamic port: the lowest free', hostPorts: [0], ranges: [[31000, 32000]], expect: [31000] },
    { name: 'dynamic ports across ranges', hostPorts: [0, 0], ranges: [[31005, 31005], [31000, 31000]], expect: [31000, 31005] },
    { name: 'dynamic: too few ports', hostPorts: [0, 0], ranges: [[31000, 31000]], expect: 'InsufficientPorts' },
    { name: 'dynamic: no ports offered', hostPorts: [0], ranges: [], expect: 'InsufficientPorts' },
    { name: 'requirePorts: fixed port offered', hostPorts: [8080], requirePorts: true, ranges: [[8000, 9000]], expect: [8080] },
    { name: 'requirePorts: fixed port at a range edge', hostPorts: [9000], requirePorts: true, ranges: [[8000, 9000]], expect: [9000] },
    { name: 'requirePorts: fixed port not offered', hostPorts: [8080], requirePorts: true, ranges: [[31000, 32000]], expect: 'InsufficientPorts' },
    { name: 'requirePorts: one of two fixed ports missing', hostPorts: [8080, 8081], requirePorts: true, ranges: [[8080, 8080], [9000, 9100]], expect: 'InsufficientPorts' },
    { name: 'fixed + dynamic: dynamic never takes the fixed one', hostPorts: [0, 31000], ranges: [[31000, 31001]], expect: [31001, 31000] },
    { name: 'fixed + dynamic: not enough for both', hostPorts: [31000, 0], ranges: [[31000, 31000]], expect: 'InsufficientPorts' },
  ];
  for (const c of cases) {
    const h = new Harness();
    h.put(makeApp({ hostPorts: c.hostPorts, requirePorts: c.requirePorts ?? false }));
    const launched = h.offer(makeOffer({ ports: c.ranges }));
    if (c.expect === 'InsufficientPorts') {
      t.same(launched, [], `${c.name}: rejected`);
      t.same(h.scheduler.rejections('/app')?.byReason(), { InsufficientPorts: 1 }, `${c.name}: reason`);
    } else {
      t.same(launched.map((l) => l.hostPorts), [c.expect], c.name);
      const ports = h.calls('accept')[0].operations[0].allocation.flatMap((p) => p.ports);
      t.same([...ports].sort((a, b) => a[0] - b[0]), [...c.expect].sort((a, b) => a - b).map((p) => [p, p]), `${c.name}: allocation`);
    }
  }
});

t.test('dynamic ports: each instance in the same offer gets different ports', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 3, hostPorts: [0, 0] }));
  const launched = h.offer(makeOffer({ ports: [[31000, 31004]] }));
  t.same(launched.map((l) => l.hostPorts), [[31000, 31001], [31002, 31003]], 'the third finds one port left');
  t.equal(h.scheduler.queue()[0].scheduled, 1);
});

t.test('requirePorts: a fixed port fits once per offer', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2, hostPorts: [8080], requirePorts: true }));
  t.same(h.offer(makeOffer({ ports: [[8000, 9000]] })).map((l) => l.hostPorts), [[8080]]);
  t.same(h.offer(makeOffer({ ports: [[8081, 9000]] })), []);
  t.same(h.scheduler.rejections('/app')?.byReason(), { InsufficientPorts: 1 });
});

t.test('ports taken from the middle of a range leave both sides usable', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/fixed', hostPorts: [31001] }));
  h.put(makeApp({ id: '/dyn', instances: 2, hostPorts: [0] }));
  const launched = h.offer(makeOffer({ ports: [[31000, 31002]] }));
  t.same(launched.map((l) => [l.runSpecId, l.hostPorts]), [['/fixed', [31001]], ['/dyn', [31000]], ['/dyn', [31002]]]);
});
