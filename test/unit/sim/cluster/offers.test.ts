import t from 'tap';
import { agent, Harness, launchOp, pool, res, taskLaunch } from './harness';

t.test('the first cycle runs at start and offers every agent, sorted by agentId, with offer ids from a counter', async (t) => {
  const h = new Harness({ agents: [agent('b'), agent('a'), agent('c')] });
  h.cluster.start();
  h.runFor(0);
  const batches = h.offerBatches();
  t.equal(batches.length, 1, 'one offers input per cycle');
  t.equal(batches[0].t, h.now);
  t.same(batches[0].offers.map((o) => o.agent.agentId), ['a', 'b', 'c']);
  t.same(batches[0].offers.map((o) => o.offerId), ['offer-1', 'offer-2', 'offer-3']);
  const o = batches[0].offers[0];
  t.same(o.pools, [{ cpusMilli: 4000, memMilli: 4_096_000, diskMilli: 10_000_000, gpus: 0, ports: [[31000, 31009]] }]);
  t.same(o.agent, { agentId: 'a', hostname: 'a.example', attributes: [{ name: 'rack', type: 'text', text: 'r1' }] });
  t.notOk('allocationRole' in o, 'the simulator leaves allocationRole unset');
});

t.test('an agent with an outstanding offer is not offered again; decline filters it for refuseMs', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  h.cluster.start();
  const t0 = h.now;
  h.runFor(0);
  h.runFor(5000);
  t.equal(h.offerBatches().length, 1, 'outstanding offers are not re-offered');
  const [o1, o2] = h.offerBatches()[0].offers;
  h.cluster.decline([o1.offerId], 10_000);
  h.cluster.decline([o2.offerId], 0);
  h.runUntil(t0 + 5000);
  let since = h.offersSince(t0 + 1);
  t.same(since.map((o) => [o.agent.agentId, h.offerBatches().find((b) => b.offers.includes(o))?.t]), [['a2', t0 + 5000]], 'refuse 0: re-offered at the next grid point (now is on the grid)');
  h.cluster.decline([since[0].offerId], 0);
  h.runUntil(t0 + 5500);
  since = h.offersSince(t0 + 5001);
  t.same(since.map((o) => o.agent.agentId), [], 'a cycle runs at most once per grid point');
  h.runUntil(t0 + 6000);
  since = h.offersSince(t0 + 5001);
  t.same(since.map((o) => o.agent.agentId), ['a2']);
  h.runUntil(t0 + 14_999);
  since = h.offersSince(t0 + 1).filter((o) => o.agent.agentId === 'a1');
  t.equal(since.length, 0, 'a1 still filtered just before 5000 + 10000');
  h.runUntil(t0 + 15_000);
  since = h.offersSince(t0 + 1).filter((o) => o.agent.agentId === 'a1');
  t.equal(since.length, 1, 'a1 offered at the first cycle after its filter expired');
});

t.test('declining an unknown or already used offer is ignored', async (t) => {
  const h = new Harness();
  h.cluster.start();
  h.runFor(0);
  const o = h.lastOffer('a1');
  h.cluster.decline(['offer-999'], 0);
  h.cluster.decline([o.offerId], 60_000);
  h.cluster.decline([o.offerId], 0);
  h.runFor(10_000);
  t.equal(h.offerBatches().length, 1, 'the second decline did not clear the filter');
});

t.test('no loop entries while nothing can be offered', async (t) => {
  const h = new Harness();
  h.cluster.start();
  h.runFor(0);
  h.cluster.decline([h.lastOffer('a1').offerId], 3_600_000);
  const before = h.simEvents;
  h.runFor(3_599_000);
  t.equal(h.simEvents, before, 'no offer cycles run while the only agent is filtered');
  t.equal(h.loop.size, 1, 'only the filter expiry is queued');
});

t.test('accept consumes exactly the allocation; leftovers are offered after the refuse filter', async (t) => {
  const h = new Harness();
  h.cluster.start();
  const t0 = h.now;
  h.runFor(0);
  const o = h.lastOffer('a1');
  const task = taskLaunch('t1', 'a1', { resources: res(1, 1000), hostPorts: [31003] });
  h.cluster.accept(o.offerId, [launchOp(task)], 2000);
  t.same(h.cluster.agentUsage('a1'), [{ cpusMilli: 1000, memMilli: 1_000_000, diskMilli: 0, gpus: 0, ports: [[31003, 31003]] }]);
  h.runUntil(t0 + 1999);
  t.equal(h.offerBatches().length, 1);
  h.runUntil(t0 + 2000);
  const next = h.lastOffer('a1');
  t.not(next.offerId, o.offerId);
  t.same(next.pools, [{ cpusMilli: 3000, memMilli: 3_096_000, diskMilli: 10_000_000, gpus: 0, ports: [[31000, 31002], [31004, 31009]] }]);
  t.same(h.cluster.violations, []);
});

t.test('a full agent is not offered until resources are freed', async (t) => {
  const h = new Harness({ agents: [agent('a1', { cpus: 1, mem: 128, disk: 0, ports: [] })] });
  h.cluster.start();
  h.runFor(0);
  const task = taskLaunch('t1', 'a1', { resources: res(1, 128) });
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(task)], 0);
  h.runFor(60_000);
  t.equal(h.offerBatches().length, 1, 'nothing left to offer');
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(1);
  t.equal(h.cluster.liveTasks().length, 0);
  h.runFor(1000);
  t.equal(h.offerBatches().length, 2, 'freed resources are offered again');
});

t.test('reserved pools: one pool per role, unreserved first', async (t) => {
  const h = new Harness({
    agents: [agent('a1', { reserved: [
      { role: 'web', cpus: 2, mem: 1024, disk: 0, gpus: 0, ports: [[32000, 32001]] },
      { role: 'db', cpus: 1, mem: 512, disk: 100, gpus: 0, ports: [] },
    ] })],
  });
  h.cluster.start();
  h.runFor(0);
  const o = h.lastOffer('a1');
  t.same(o.pools.map((p) => p.reservedFor), [undefined, 'db', 'web']);
  t.same(o.pools[2], { reservedFor: 'web', cpusMilli: 2000, memMilli: 1_024_000, diskMilli: 0, gpus: 0, ports: [[32000, 32001]] });
  t.same(h.cluster.agentCapacity('a1').map((p) => p.reservedFor), [undefined, 'db', 'web']);
  const task = taskLaunch('t1', 'a1', { role: 'web', resources: res(1, 512), hostPorts: [32001] });
  h.cluster.accept(o.offerId, [launchOp(task, 'web')], 0);
  t.same(h.cluster.agentUsage('a1')[2], { reservedFor: 'web', cpusMilli: 1000, memMilli: 512_000, diskMilli: 0, gpus: 0, ports: [[32001, 32001]] });
  h.runFor(1000);
  t.same(h.lastOffer('a1').pools[2], { reservedFor: 'web', cpusMilli: 1000, memMilli: 512_000, diskMilli: 0, gpus: 0, ports: [[32000, 32000]] });
  t.same(h.cluster.violations, []);
});

t.test('suppress and revive per role', async (t) => {
  const h = new Harness({
    agents: [agent('a1', { reserved: [
      { role: 'web', cpus: 1, mem: 100, disk: 0, gpus: 0, ports: [] },
      { role: 'db', cpus: 1, mem: 100, disk: 0, gpus: 0, ports: [] },
    ] })],
  });
  h.cluster.start();
  h.cluster.suppress(['web']);
  h.runFor(0);
  let o = h.lastOffer('a1');
  t.same(o.pools.map((p) => p.reservedFor), ['db'], 'web pool suppressed; unreserved too: the only role the framework named is suppressed');
  h.cluster.decline([o.offerId], 0);
  h.cluster.revive(['db']);
  h.runFor(1000);
  o = h.lastOffer('a1');
  t.same(o.pools.map((p) => p.reservedFor), [undefined, 'db'], 'a known unsuppressed role (db) brings the unreserved pool back');
  h.cluster.decline([o.offerId], 0);
  h.cluster.suppress(['db']);
  const before = h.offerBatches().length;
  h.runFor(10_000);
  t.equal(h.offerBatches().length, before, 'every known role suppressed: nothing offered');
  h.cluster.revive(['db']);
  h.runFor(1000);
  o = h.lastOffer('a1');
  t.same(o.pools.map((p) => p.reservedFor), [undefined, 'db'], 'revive re-enables db and the unreserved pool');
  h.cluster.decline([o.offerId], 600_000);
  h.cluster.revive(['web']);
  h.runFor(1000);
  o = h.lastOffer('a1');
  t.same(o.pools.map((p) => p.reservedFor), [undefined, 'db', 'web'], 'revive clears the refuse filter too');
});

t.test('suppress with no roles suppresses everything; revive with none revives everything', async (t) => {
  const h = new Harness();
  h.cluster.start();
  h.cluster.suppress([]);
  h.runFor(10_000);
  t.equal(h.offerBatches().length, 0);
  h.cluster.revive([]);
  h.runFor(1000);
  t.equal(h.offerBatches().length, 1);
});

t.test('before any suppress everything is offered; suppress does not rescind outstanding offers', async (t) => {
  const h = new Harness();
  h.cluster.start();
  h.runFor(0);
  h.cluster.suppress(['*']);
  h.runFor(1000);
  t.equal(h.inputsOfType('rescind').length, 0);
  const o = h.lastOffer('a1');
  h.cluster.accept(o.offerId, [launchOp(taskLaunch('t1', 'a1'))], 0);
  t.same(h.cluster.violations, [], 'an outstanding offer stays usable after suppress');
});

t.test('rescindOffers posts rescind; the agent is offered again next cycle', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  h.cluster.start();
  h.runFor(0);
  h.cluster.rescindOffers('a2');
  h.runFor(0);
  t.same(h.inputsOfType('rescind').map((r) => r.offerId), ['offer-2']);
  h.cluster.rescindOffers();
  h.runFor(0);
  t.same(h.inputsOfType('rescind').map((r) => r.offerId), ['offer-2', 'offer-1']);
  h.runFor(1000);
  t.same(h.offerBatches()[1].offers.map((o) => [o.offerId, o.agent.agentId]), [['offer-3', 'a1'], ['offer-4', 'a2']]);
  t.same(h.cluster.outstandingOffers(), [{ offerId: 'offer-3', agentId: 'a1' }, { offerId: 'offer-4', agentId: 'a2' }]);
});

t.test('addAgent: offered from the next cycle; agentIds and agentInfos sorted', async (t) => {
  const h = new Harness({ agents: [agent('b')] });
  h.cluster.start();
  h.runFor(0);
  h.runFor(500);
  h.cluster.addAgent(agent('a'));
  t.same(h.cluster.agentIds(), ['a', 'b']);
  t.same(h.cluster.agentInfos().map((i) => i.agentId), ['a', 'b']);
  t.throws(() => h.cluster.addAgent(agent('a')), /already exists/);
  h.runFor(499);
  t.equal(h.offerBatches().length, 1);
  h.runFor(1);
  t.same(h.offerBatches()[1].offers.map((o) => o.agent.agentId), ['a'], 'on the grid');
});

t.test('pool helper sanity', async (t) => {
  t.same(pool(res(1, 1), [], 'r'), { reservedFor: 'r', cpusMilli: 1000, memMilli: 1000, diskMilli: 0, gpus: 0, ports: [] });
});
