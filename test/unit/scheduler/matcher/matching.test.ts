import t from 'tap';
import type { NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import type { Offer } from '../../../../src/scheduler/model/offer';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { SchedulerOptions } from '../../../../src/scheduler/scheduler-options';
import { makeAgent, makeOffer, type OfferOverrides } from '../../../builders/cluster-builders';
import { constraint, makeApp, type AppOverrides } from '../../../builders/run-spec-builders';
import { Harness, START_MS } from '../../../harness/core-harness';

/** Puts `spec`, sends one offer, and reports what happened to it. */
function offerOnce(spec: RunSpec, offer: Offer, options: Partial<SchedulerOptions> = {}) {
  const h = new Harness({ options });
  h.put(spec);
  const launched = h.offer(offer);
  const stats = h.scheduler.rejections(spec.id);
  return { h, launched, byReason: stats?.byReason() ?? {}, stats };
}

t.test('scalar resources: each shortfall is rejected with its reason and the offer declined', async (t) => {
  const cases: { name: string; app: AppOverrides; offer: OfferOverrides; reason?: NoMatchReason; options?: Partial<SchedulerOptions> }[] = [
    { name: 'exact fit', app: { cpus: 1, mem: 128, disk: 64 }, offer: { cpus: 1, mem: 128, disk: 64 } },
    { name: 'cpus', app: { cpus: 1.001 }, offer: { cpus: 1 }, reason: 'InsufficientCpus' },
    { name: 'mem', app: { mem: 129 }, offer: { mem: 128 }, reason: 'InsufficientMemory' },
    { name: 'disk', app: { disk: 100 }, offer: { disk: 99.999 }, reason: 'InsufficientDisk' },
    { name: 'gpus', app: { gpus: 2 }, offer: { gpus: 1 }, reason: 'InsufficientGpus' },
    { name: 'gpus fit', app: { gpus: 1 }, offer: { gpus: 1 } },
    { name: 'cpus is checked before mem', app: { cpus: 8, mem: 8192 }, offer: { cpus: 1, mem: 128 }, reason: 'InsufficientCpus' },
    { name: 'mem is checked before disk', app: { mem: 8192, disk: 1e6 }, offer: {}, reason: 'InsufficientMemory' },
    { name: 'GPU agent, non-GPU app, restricted (default)', app: {}, offer: { gpus: 1 }, reason: 'DeclinedScarceResources' },
    { name: 'GPU agent, non-GPU app, unrestricted', app: {}, offer: { gpus: 1 }, options: { gpuRestricted: false } },
  ];
  for (const c of cases) {
    t.test(c.name, async (t) => {
      const offer = makeOffer({ offerId: 'o1', agent: { hostname: 'h1' }, ...c.offer });
      const { h, launched, byReason, stats } = offerOnce(makeApp(c.app), offer, c.options);
      if (c.reason === undefined) {
        t.equal(launched.length, 1, 'launched');
        t.same(h.calls('decline'), []);
        t.same(byReason, {});
        t.equal(stats?.processedOffers, 1);
        t.equal(stats?.lastUsedOfferAtMs, START_MS);
        return;
      }
      t.same(launched, [], 'nothing launched');
      t.same(h.calls('decline'), [{ type: 'decline', offerIds: ['o1'], refuseMs: 120_000 }], 'declined with the refuse filter');
      t.same(byReason, { [c.reason]: 1 }, 'the reason is recorded');
      t.match(stats, { processedOffers: 1, unusedOffers: 1, lastUnusedOfferAtMs: START_MS });
      t.same(stats?.lastUnused(), [{ offer, reason: c.reason, atMs: START_MS }]);
      t.equal(stats?.lastUnused()[0]?.offer, offer, 'the offer itself is kept (agent attributes and pools for the queue)');
      const [entry] = h.scheduler.queue();
      t.equal(entry.scheduled, 1, 'the instance still waits');
      t.equal(entry.stats.byReason()[c.reason], 1, '/v2/queue sees the reason');
    });
  }
  t.end();
});

t.test('several instances per offer deduct from the offer ledger', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 3, cpus: 1, mem: 100 }));
  const launched = h.offer(makeOffer({ offerId: 'o1', cpus: 2.5, mem: 1000 }));
  t.equal(launched.length, 2, 'two fit, the third does not');
  const [accept] = h.calls('accept');
  t.equal(accept.offerId, 'o1');
  t.equal(accept.operations.length, 2, 'one accept call with both launches');
  t.equal(accept.refuseMs, 0, 'the unused rest is not filtered: offered again in the next cycle, as Marathon accepts');
  t.same(h.calls('decline'), [], 'a used offer is not declined');
  t.same(h.scheduler.rejections('/app')?.byReason(), {}, 'running out after using an offer is not a rejection');
  t.equal(h.scheduler.queue()[0].scheduled, 1);
  t.same(h.conditions('/app').sort(), ['Provisioned', 'Provisioned', 'Scheduled']);
  const next = h.offer(makeOffer({ offerId: 'o2', cpus: 0.5 }));
  t.same(next, []);
  t.same(h.scheduler.rejections('/app')?.byReason(), { InsufficientCpus: 1 });
});

t.test('the ledger also deducts mem, disk and gpus', async (t) => {
  for (const [res, offer] of [
    [{ mem: 100 }, { mem: 250 }], [{ disk: 100 }, { disk: 250 }], [{ gpus: 1 }, { gpus: 2 }],
  ] as const) {
    const h = new Harness();
    h.put(makeApp({ instances: 3, ...res }));
    t.equal(h.offer(makeOffer(offer)).length, 2, JSON.stringify(res));
  }
});

t.test('maxInstancesPerOffer caps the launches per offer', async (t) => {
  for (const [max, expected] of [[5, 5], [2, 2], [1, 1]] as const) {
    const h = new Harness({ options: { maxInstancesPerOffer: max } });
    h.put(makeApp({ instances: 10 }));
    t.equal(h.offer(makeOffer()).length, expected, `max ${max}`);
    t.equal(h.scheduler.queue()[0].scheduled, 10 - expected);
  }
  const h = new Harness();
  h.put(makeApp({ instances: 7 }));
  t.equal(h.offer(makeOffer(), makeOffer()).length, 7, 'a batch of two offers: 5 + 2 (default 5 per offer)');
  t.same(h.calls('accept').map((a) => a.operations.length), [5, 2]);
});

t.test('run specs share an offer in rounds, one instance each per round', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/a', instances: 2 }));
  h.put(makeApp({ id: '/b', instances: 2 }));
  const launched = h.offer(makeOffer());
  t.same(launched.map((l) => l.runSpecId), ['/a', '/b', '/a', '/b']);
});

t.test('instances are persisted (Provisioned) before the offer is accepted', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2 }));
  h.clearRecords();
  h.offer(makeOffer({ offerId: 'o1' }));
  const kinds = h.effects.filter((e) => e.kind !== 'event').map((e) => (e.kind === 'driver' ? e.call.type : e.kind === 'store' ? e.write.type : e.kind));
  const save = kinds.indexOf('saveInstances');
  t.ok(save >= 0 && save < kinds.indexOf('accept'), `${kinds.join(',')}`);
  const saved = h.store.writes.find((w) => w.type === 'saveInstances');
  t.same(saved?.type === 'saveInstances' ? saved.instances.map((i) => [i.condition, i.agent?.agentId, i.incarnation]) : [],
    [['Provisioned', 'agent-host-1', 1], ['Provisioned', 'agent-host-1', 1]]);
});

t.test('a launch carries the agent, role, resources, ports, version and kill grace', async (t) => {
  const h = new Harness();
  const app = makeApp({ cpus: 0.5, mem: 64, disk: 1, hostPorts: [0], killGracePeriodMs: 7000 });
  h.put(app);
  const [l] = h.offer(makeOffer({ agent: { hostname: 'h9', agentId: 'a9' } }));
  const [inst] = h.instances('/app');
  t.match(l, {
    taskId: `${inst.instanceId}._app.1`, instanceId: inst.instanceId, runSpecId: '/app', runSpecVersion: app.version,
    agentId: 'a9', hostname: 'h9', role: '*', resources: { cpusMilli: 500, memMilli: 64_000, diskMilli: 1000, gpus: 0 },
    hostPorts: [31000], killGracePeriodMs: 7000,
  });
  t.match(l, {
    command: { shell: 'sleep 1000' }, labels: {}, fetch: [], volumes: [], secretEnv: [],
    env: { HOST: 'h9', PORT0: '31000', PORT: '31000', PORTS: '31000', PORT_PORT0: '31000', MARATHON_APP_ID: '/app', MARATHON_APP_VERSION: app.version },
    ports: [{ number: 31000, name: 'port0', protocols: ['tcp'] }],
    networking: { mode: 'host', portMappings: [] },
  }, 'resolved for the driver: command, environment, ports');
  t.match(inst.instanceId, /^app\.instance-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const [accept] = h.calls('accept');
  t.same(accept.operations[0].allocation, [{ reservedFor: undefined, cpusMilli: 500, memMilli: 64_000, diskMilli: 1000, gpus: 0, ports: [[31000, 31000]] }]);
});

t.test('placement constraints see instances placed earlier in the same cycle', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 3, constraints: [constraint('hostname', 'UNIQUE')] }));
  const launched = h.offer(
    makeOffer({ agent: { hostname: 'h1' } }), makeOffer({ agent: { hostname: 'h2' } }),
  );
  t.same(launched.map((l) => l.hostname), ['h1', 'h2'], 'one per host, though each offer fits five');
  t.same(h.scheduler.rejections('/app')?.byReason(), {});
  h.offer(makeOffer({ agent: { hostname: 'h1' } }));
  t.same(h.scheduler.rejections('/app')?.byReason(), { UnfulfilledConstraint: 1 });
  t.equal(h.offer(makeOffer({ agent: makeAgent({ hostname: 'h3' }) })).length, 1);
});

t.test('offers without demand are declined; lastUnused is a bounded ring', async (t) => {
  const h = new Harness({ options: { lastUnusedOffersMax: 2 } });
  h.offer(makeOffer({ offerId: 'idle' }));
  t.same(h.calls('decline'), [{ type: 'decline', offerIds: ['idle'], refuseMs: 120_000 }]);
  h.put(makeApp({ cpus: 100 }));
  h.offer(makeOffer({ offerId: 'x1' }), makeOffer({ offerId: 'x2' }), makeOffer({ offerId: 'x3' }));
  t.same(h.calls('decline')[1].offerIds, ['x1', 'x2', 'x3'], 'one decline call per batch');
  const stats = h.scheduler.rejections('/app');
  t.equal(stats?.unusedOffers, 3);
  t.same(stats?.lastUnused().map((u) => u.offer.offerId), ['x2', 'x3'], 'the two most recent, oldest first');
});

t.test('one batch of offers: every run spec records each offer it did not use, in order, whatever run specs share its filters', async (t) => {
  const h = new Harness();
  const like = [constraint('rack', 'LIKE', 'rack-1')];
  h.put(makeApp({ id: '/a', instances: 2, constraints: like }));
  h.put(makeApp({ id: '/b', instances: 2, constraints: like }));
  h.put(makeApp({ id: '/big', cpus: 100 }));
  h.put(makeApp({ id: '/one', instances: 1, constraints: [constraint('hostname', 'UNIQUE')] }));
  const offers = ['rack-2', 'rack-1', 'rack-3'].map((rack, i) => makeOffer({ offerId: `o${i + 1}`, agent: { hostname: `h${i + 1}`, attributes: { rack } } }));
  const launched = h.offer(...offers);
  t.same(launched.map((l) => [l.runSpecId, l.hostname]), [['/one', 'h1'], ['/a', 'h2'], ['/b', 'h2'], ['/a', 'h2'], ['/b', 'h2']]);
  const expected: Record<string, { processed: number; unused: [string, string][] }> = {
    // Both placed their two instances on o2: o3 is not theirs to refuse.
    '/a': { processed: 2, unused: [['o1', 'UnfulfilledConstraint']] },
    '/b': { processed: 2, unused: [['o1', 'UnfulfilledConstraint']] },
    '/big': { processed: 3, unused: [['o1', 'InsufficientCpus'], ['o2', 'InsufficientCpus'], ['o3', 'InsufficientCpus']] },
    '/one': { processed: 1, unused: [] },
  };
  for (const [id, e] of Object.entries(expected)) {
    const stats = h.scheduler.rejections(id);
    t.equal(stats?.processedOffers, e.processed, `${id}: offers processed`);
    t.equal(stats?.unusedOffers, e.unused.length, `${id}: offers unused`);
    t.same(stats?.lastUnused().map((u) => [u.offer.offerId, u.reason]), e.unused, `${id}: the unused offers, oldest first`);
  }
});

t.test('a run spec changed between offer cycles is matched with its new definition (the kept candidate is replaced)', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/app', role: 'dev', acceptedResourceRoles: ['dev'], cpus: 1, instances: 2 }));
  t.same(h.offer(makeOffer({ offerId: 'o1', cpus: 4 })), [], 'an unreserved offer does not suit acceptedResourceRoles [dev]');
  t.same(h.scheduler.rejections('/dev/app')?.byReason(), { UnfulfilledRole: 1 });
  // Its first deployment is still running (nothing placed): the change stops it (force).
  const put = h.put(makeApp({ id: '/dev/app', role: 'dev', acceptedResourceRoles: ['*'], cpus: 0.5, instances: 2, version: '2026-01-02T00:00:00.000Z' }), { force: true });
  t.equal(put.ok, true, 'the change is accepted');
  const launched = h.offer(makeOffer({ offerId: 'o2', cpus: 4 }));
  t.same(launched.map((l) => [l.role, l.resources.cpusMilli]), [['dev', 500], ['dev', 500]], 'both placed with the new request');
  const [accept] = h.calls('accept');
  t.same(accept.operations.map((o) => o.allocation.map((p) => [p.reservedFor ?? '*', p.cpusMilli])), [[['*', 500]], [['*', 500]]]);
});

t.test('offer statistics are recorded per run spec across cycles, used and unused, as one call per offer would', async (t) => {
  const h = new Harness({ options: { lastUnusedOffersMax: 3 } });
  h.put(makeApp({ id: '/big', cpus: 3, instances: 3 }));
  h.put(makeApp({ id: '/small', cpus: 1, instances: 6 }));
  // Cycle 1: o1 (4 cpus) takes one /big and one /small; o2 (1 cpu) is refused by /big, used by /small.
  h.offer(makeOffer({ offerId: 'o1', cpus: 4 }), makeOffer({ offerId: 'o2', cpus: 1 }));
  // Cycle 2: three small offers, each refused by /big.
  h.offer(makeOffer({ offerId: 'o3', cpus: 1 }), makeOffer({ offerId: 'o4', cpus: 1 }), makeOffer({ offerId: 'o5', cpus: 1 }));
  const big = h.scheduler.rejections('/big');
  const small = h.scheduler.rejections('/small');
  t.match(big, { processedOffers: 5, unusedOffers: 4 });
  t.same(big?.byReason(), { InsufficientCpus: 4 });
  t.same(big?.lastUnused().map((u) => u.offer.offerId), ['o3', 'o4', 'o5'], 'the ring of 3: the last three, oldest first');
  t.match(small, { processedOffers: 5, unusedOffers: 0 });
  t.same(h.conditions('/big').filter((c) => c === 'Scheduled').length, 2, '/big: one placed, two wait');
  t.same(h.conditions('/small').filter((c) => c === 'Scheduled').length, 1, '/small: five placed, one waits');
});
