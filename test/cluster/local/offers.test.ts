import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { hostNetworkAddresses, resolveAgents } from '../../../src/cluster/local/local-agent';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, makeFixture, sleep } from './local-fixture';

t.test('start posts subscribed, then one offer per agent with its free resources', async (t) => {
  const f = makeFixture(t, {
    agents: [
      { agentId: 'b', cpus: 2, memMib: 1024, diskMib: 500, gpus: 1, ports: [23100, 23199], attributes: { rack: 'r2' }, region: 'eu', zone: 'eu-1' },
      { agentId: 'a', hostname: 'localhost', cpus: 1.5, memMib: 512, diskMib: 100, ports: [23000, 23009] },
    ],
  });
  f.cluster.start();
  await f.nextOffer(0, 'b');
  t.match(f.inputs[0], { type: 'subscribed', frameworkId: /^local-/ });
  t.equal(f.cluster.frameworkId, (f.inputs[0] as { frameworkId: string }).frameworkId);
  const [first] = f.inputs.filter((i) => i.type === 'offers');
  t.same(first.type === 'offers' ? first.offers.map((o) => ({ agent: o.agent, pools: o.pools })) : [], [
    {
      agent: { agentId: 'a', hostname: 'localhost', attributes: [] },
      pools: [{ cpusMilli: 1500, memMilli: 512_000, diskMilli: 100_000, gpus: 0, ports: [[23000, 23009]] }],
    },
    {
      agent: { agentId: 'b', hostname: '127.0.0.1', region: 'eu', zone: 'eu-1', attributes: [{ name: 'rack', type: 'text', text: 'r2' }] },
      pools: [{ cpusMilli: 2000, memMilli: 1_024_000, diskMilli: 500_000, gpus: 1, ports: [[23100, 23199]] }],
    },
  ], 'agents in id order, one unreserved pool each');
  const ids = f.offers().map((o) => o.offerId);
  t.equal(new Set(ids).size, ids.length, 'offer ids are unique');
  await sleep(150);
  t.equal(f.offers().length, 2, 'no new offer while one is outstanding');
});

t.test('a decline filters the agent for refuseMs; revive clears the filter', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  let seen = f.offers().length;
  // 2 s: long enough that a loaded machine cannot stretch the 150 ms look past the filter.
  f.cluster.decline([offer.offerId], 2000);
  await sleep(150);
  t.equal(f.offers().length, seen, 'filtered');
  const again = await f.nextOffer(seen);
  t.not(again.offerId, offer.offerId, 'offered again under a new id once the filter expired');
  seen = f.offers().length;
  f.cluster.decline([again.offerId], 60_000);
  await sleep(150);
  t.equal(f.offers().length, seen, 'filtered for a minute');
  f.cluster.revive([]);
  await f.nextOffer(seen);
  t.pass('revive brought the offer back');
});

t.test('suppress stops offers per role until revive', async (t) => {
  const cases = [
    { name: 'all roles', suppress: [], revive: [] },
    { name: 'a named role', suppress: ['web'], revive: ['web'] },
  ];
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const f = makeFixture(t);
      const offer = await f.startAndOffer();
      f.cluster.suppress(c.suppress);
      const seen = f.offers().length;
      f.cluster.decline([offer.offerId], 0);
      await sleep(200);
      t.equal(f.offers().length, seen, 'suppressed: no offers');
      f.cluster.revive(c.revive);
      await f.nextOffer(seen);
      t.pass('revived');
    });
  }
});

t.test('suppressing one role keeps offering while another named role is unsuppressed', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  f.cluster.revive(['ops']);
  f.cluster.suppress(['web']);
  const seen = f.offers().length;
  f.cluster.decline([offer.offerId], 0);
  await f.nextOffer(seen);
  t.pass('still offered for ops');
});

t.test('an offer id is valid once: a second accept drops its tasks, an unknown decline is ignored', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  f.cluster.decline([offer.offerId], 0);
  f.cluster.decline(['no-such-offer'], 0);
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30' }));
  f.cluster.accept(offer.offerId, [op], 0);
  const dropped = await f.waitStatus(task.taskId, 'TASK_DROPPED');
  t.match(dropped, { reason: 'REASON_INVALID_OFFERS', agentId: 'agent-1', uuid: undefined });
  t.same(f.cluster.tasks(), []);
});

t.test('accepted resources leave the offers; the leftover filter ends when the task frees them', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  // It ends when told (a `go` file), not after a fixed sleep that a loaded machine could outlast
  // before the check that nothing was offered while it ran.
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'while [ ! -e go ]; do sleep 0.05; done', cpus: 1, mem: 100, disk: 10, hostPorts: [0, 0] }));
  let seen = f.offers().length;
  f.cluster.accept(offer.offerId, [op], 60_000);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  t.equal(f.offers().length, seen, 'the leftovers are filtered');
  writeFileSync(join(sandboxOf(f.options.sandboxRoot, task.taskId), 'go'), '1');
  const next = await f.nextOffer(seen);
  t.ok(f.states(task.taskId).includes('TASK_FINISHED'), 'offered again only once the task ended');
  t.same(next.pools, offer.pools, 'everything is free again');
  seen = f.offers().length;
  const second = appLaunch(next, makeApp({ cmd: 'sleep 30', cpus: 1, mem: 100, disk: 10, hostPorts: [0, 0] }));
  f.cluster.accept(next.offerId, [second.op], 0);
  const after = await f.nextOffer(seen);
  t.same(after.pools, [{ cpusMilli: 3000, memMilli: 3_996_000, diskMilli: 9_990_000, gpus: 0, ports: [[offer.pools[0].ports[0][0] + 2, offer.pools[0].ports[0][1]]] }], 'free = capacity − allocation');
});

t.test('an operation taking more than the offer is answered TASK_ERROR; the others still launch', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const big = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 3 }));
  const bigger = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 3 }));
  f.cluster.accept(offer.offerId, [big.op, bigger.op], 0);
  await f.waitStatus(big.task.taskId, 'TASK_RUNNING');
  const error = await f.waitStatus(bigger.task.taskId, 'TASK_ERROR');
  t.match(error, { reason: 'REASON_TASK_INVALID', message: /cpusMilli 3000 exceeds the 1000 left/ });
});

t.test('agents from options', async (t) => {
  const two = resolveAgents(2);
  t.same(two.map((a) => [a.agentId, a.ports]), [['local-agent-1', [[31000, 31999]]], ['local-agent-2', [[32000, 32999]]]]);
  t.ok(two.every((a) => a.capacity.cpusMilli > 0 && a.capacity.memMilli > 0 && a.info.hostname === '127.0.0.1'));
  const bad = [
    { name: 'overlapping ports on one host', agents: [{ cpus: 1, memMib: 1, diskMib: 1, ports: [1000, 2000] as const }, { cpus: 1, memMib: 1, diskMib: 1, ports: [2000, 3000] as const }], error: /overlapping ports/ },
    { name: 'duplicate ids', agents: [{ agentId: 'x', cpus: 1, memMib: 1, diskMib: 1, ports: [1000, 1001] as const }, { agentId: 'x', hostname: 'h', cpus: 1, memMib: 1, diskMib: 1, ports: [1000, 1001] as const }], error: /duplicate agent id x/ },
    { name: 'a reversed range', agents: [{ cpus: 1, memMib: 1, diskMib: 1, ports: [2000, 1000] as const }], error: /inclusive range/ },
    { name: 'no agents', agents: [], error: /at least one agent/ },
  ];
  for (const c of bad) t.throws(() => resolveAgents(c.agents), c.error, c.name);
  t.same(resolveAgents([{ agentId: 'x', cpus: 1, memMib: 1, diskMib: 1, ports: [1000, 1001] }, { agentId: 'y', hostname: 'other', cpus: 1, memMib: 1, diskMib: 1, ports: [1000, 1001] }]).length, 2, 'other hosts may reuse ports');
  t.throws(() => resolveAgents(0), /positive integer/);
});

t.test('a count of agents splits the given port range (--local_agent_ports) evenly, the last taking the rest', async (t) => {
  const cases: { count: number; ports?: readonly [number, number]; expect: [number, number][] | RegExp }[] = [
    { count: 1, expect: [[31000, 31999]] },
    { count: 3, expect: [[31000, 31999], [32000, 32999], [33000, 33999]] },
    { count: 1, ports: [40100, 40199], expect: [[40100, 40199]] },
    { count: 3, ports: [40100, 40109], expect: [[40100, 40102], [40103, 40105], [40106, 40109]] },
    { count: 2, ports: [40100, 40101], expect: [[40100, 40100], [40101, 40101]] },
    { count: 3, ports: [40100, 40101], expect: /2 port\(s\) cannot be split among 3 agents/ },
    { count: 1, ports: [40101, 40100], expect: /inclusive range BEGIN-END within 1\.\.65535, got 40101-40100/ },
    { count: 1, ports: [0, 10], expect: /within 1\.\.65535/ },
    { count: 1, ports: [65000, 65536], expect: /within 1\.\.65535/ },
  ];
  for (const c of cases) {
    const name = `${c.count} agent(s) on ${c.ports?.join('-') ?? 'the default range'}`;
    if (c.expect instanceof RegExp) t.throws(() => resolveAgents(c.count, c.ports), c.expect, name);
    else t.same(resolveAgents(c.count, c.ports).map((a) => a.ports[0]), c.expect, name);
  }
  const list = [{ agentId: 'x', cpus: 1, memMib: 1, diskMib: 1, ports: [23000, 23001] as const }];
  t.same(resolveAgents(list, [40100, 40199])[0].ports, [[23000, 23001]], 'a list of agents brings its own ranges');
});

t.test('hostNetworkAddresses: the agent\'s hostname when it is an IP address, else the loopback address', async (t) => {
  const cases: { hostname: string; want: unknown }[] = [
    { hostname: '127.0.0.1', want: [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }] },
    { hostname: '10.2.3.4', want: [{ ipAddress: '10.2.3.4', protocol: 'IPv4' }] },
    { hostname: '::1', want: [{ ipAddress: '::1', protocol: 'IPv6' }] },
    { hostname: 'localhost', want: [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }] },
    { hostname: 'node-7.example', want: [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }] },
  ];
  for (const c of cases) t.strictSame(hostNetworkAddresses(c.hostname), c.want, c.hostname);
});
