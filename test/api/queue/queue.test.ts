import t from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { appDefinitionJson } from '../../../src/marathon/render/app-definition-json';
import { podDefinitionJson } from '../../../src/marathon/render/pod-definition-json';

interface QueueWire {
  queue: (Record<string, unknown> & {
    count: number;
    delay: { timeLeftSeconds: number; overdue: boolean };
    since: string;
    processedOffersSummary: Record<string, unknown> & {
      processedOffersCount: number;
      unusedOffersCount: number;
      rejectSummaryLastOffers: { reason: string; declined: number; processed: number }[];
      rejectSummaryLaunchAttempt: { reason: string; declined: number; processed: number }[];
    };
  })[];
}

const REASONS = [
  'UnfulfilledRole', 'UnfulfilledConstraint', 'NoCorrespondingReservationFound', 'AgentMaintenance', 'InsufficientCpus',
  'InsufficientMemory', 'InsufficientDisk', 'InsufficientGpus', 'InsufficientPorts', 'DeclinedScarceResources',
];

async function getQueue(fx: ApiFixture, query = ''): Promise<QueueWire> {
  const res = await fx.app.inject({ method: 'GET', url: `/v2/queue${query}` });
  if (res.statusCode !== 200) throw new Error(`GET /v2/queue → ${res.statusCode}`);
  return JSON.parse(res.body) as QueueWire;
}

const iso = (ms: number) => new Date(ms).toISOString();

t.test('nothing waiting → {"queue":[]}', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.same(await getQueue(fx), { queue: [] });
  fx.harness.deploy(makeApp({ id: '/done' }));
  t.same(await getQueue(fx), { queue: [] }, 'launched apps are not queued');
});

t.test('an app waiting for offers (fact 90)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const app = makeApp({ id: '/dev/web', instances: 3, role: 'dev' });
  fx.harness.put(app);
  fx.harness.advance(5000);
  const { queue } = await getQueue(fx);
  t.equal(queue.length, 1);
  const [entry] = queue;
  t.same(entry.app, appDefinitionJson(app), "the app as Marathon's app writer writes it: unset (null) and empty fields left out");
  const written = entry.app as Record<string, unknown>;
  t.notOk('env' in written || 'constraints' in written || 'healthChecks' in written, 'empty omit-if-empty fields left out');
  t.notOk('pod' in entry);
  t.equal(entry.count, 3);
  t.equal(entry.role, 'dev');
  t.same(entry.delay, { timeLeftSeconds: 0, overdue: true }, 'waiting for offers: overdue');
  t.equal(entry.since, iso(START_MS));
  t.notOk('lastUnusedOffers' in entry, 'only with embed');
  t.same(entry.processedOffersSummary, {
    processedOffersCount: 0,
    unusedOffersCount: 0,
    rejectSummaryLastOffers: REASONS.map((reason) => ({ reason, declined: 0, processed: 0 })),
    rejectSummaryLaunchAttempt: REASONS.map((reason) => ({ reason, declined: 0, processed: 0 })),
  });
});

t.test('a pod entry carries "pod"', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const pod = makePod({ id: '/pod', instances: 2 });
  fx.harness.put(pod);
  const [entry] = (await getQueue(fx)).queue;
  t.same(entry.pod, podDefinitionJson(pod, { versionInfo: false }), 'the pod as before the redesign: no versionInfo');
  t.notOk('app' in entry);
  t.equal(entry.count, 2);
});

t.test('declined offers show in processedOffersSummary and lastUnusedOffers', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.put(makeApp({ id: '/big', instances: 2, cpus: 2, mem: 64 }));
  fx.harness.offer(makeOffer({ offerId: 'o1', cpus: 1, agent: { hostname: 'a' } }));
  fx.harness.advance(1000);
  fx.harness.offer(makeOffer({ offerId: 'o2', cpus: 4, mem: 32, agent: { hostname: 'b' } }));
  fx.harness.advance(1000);
  fx.harness.offer(makeOffer({
    offerId: 'o3', cpus: 1, mem: 512, disk: 100, ports: [[31000, 31005], [31010, 31010]],
    reserved: [{ role: 'dev', cpus: 0.5, mem: 64 }],
    agent: { hostname: 'a', attributes: { rack: 'r1', level: 10, slots: [[1, 3]], zones: ['x', 'y'] } },
  }));
  const [entry] = (await getQueue(fx)).queue;
  const summary = entry.processedOffersSummary;
  t.equal(summary.processedOffersCount, 3);
  t.equal(summary.unusedOffersCount, 3);
  t.equal(summary.lastUnusedOfferAt, iso(START_MS + 2000));
  t.notOk('lastUsedOfferAt' in summary, 'no offer used yet');
  const step = (list: typeof summary.rejectSummaryLastOffers, reason: string) => list.find((s) => s.reason === reason);
  t.same(summary.rejectSummaryLaunchAttempt.map((s) => s.reason), REASONS, 'funnel order');
  t.same(step(summary.rejectSummaryLaunchAttempt, 'InsufficientCpus'), { reason: 'InsufficientCpus', declined: 2, processed: 3 });
  t.same(step(summary.rejectSummaryLaunchAttempt, 'InsufficientMemory'), { reason: 'InsufficientMemory', declined: 1, processed: 1 });
  t.same(step(summary.rejectSummaryLaunchAttempt, 'InsufficientDisk'), { reason: 'InsufficientDisk', declined: 0, processed: 0 });
  // Last offers: the latest per agent (o3 for a, o2 for b).
  t.same(step(summary.rejectSummaryLastOffers, 'UnfulfilledRole'), { reason: 'UnfulfilledRole', declined: 0, processed: 2 });
  t.same(step(summary.rejectSummaryLastOffers, 'InsufficientCpus'), { reason: 'InsufficientCpus', declined: 1, processed: 2 });
  t.same(step(summary.rejectSummaryLastOffers, 'InsufficientMemory'), { reason: 'InsufficientMemory', declined: 1, processed: 1 });

  const [embedded] = (await getQueue(fx, '?embed=lastUnusedOffers')).queue;
  const o2Resources = [
    { name: 'cpus', role: '*', scalar: 4 }, { name: 'mem', role: '*', scalar: 32 }, { name: 'disk', role: '*', scalar: 10000 },
    { name: 'ports', role: '*', ranges: [{ begin: 31000, end: 32000 }] },
  ];
  t.same(embedded.lastUnusedOffers, [
    { offer: { id: 'o2', agentId: 'agent-b', hostname: 'b', resources: o2Resources, attributes: [] }, reason: ['InsufficientMemory'], timestamp: iso(START_MS + 1000) },
    {
      offer: {
        id: 'o3', agentId: 'agent-a', hostname: 'a',
        resources: [
          { name: 'cpus', role: '*', scalar: 1 }, { name: 'mem', role: '*', scalar: 512 }, { name: 'disk', role: '*', scalar: 100 },
          { name: 'ports', role: '*', ranges: [{ begin: 31000, end: 31005 }, { begin: 31010, end: 31010 }] },
          { name: 'cpus', role: 'dev', scalar: 0.5 }, { name: 'mem', role: 'dev', scalar: 64 },
        ],
        attributes: [
          { name: 'rack', text: 'r1' }, { name: 'level', scalar: 10 }, { name: 'slots', ranges: [{ begin: 1, end: 3 }] }, { name: 'zones', set: ['x', 'y'] },
        ],
      },
      reason: ['InsufficientCpus'],
      timestamp: iso(START_MS + 2000),
    },
  ]);

  fx.harness.offer(makeOffer({ offerId: 'o4', cpus: 3, agent: { hostname: 'c' } }));
  const [after] = (await getQueue(fx)).queue;
  t.equal(after.count, 1, 'one instance launched');
  t.equal(after.processedOffersSummary.lastUsedOfferAt, iso(START_MS + 2000));
});

t.test('offers of agents in a maintenance window count as UnfulfilledConstraint (as Marathon counts them) in processedOffersSummary and lastUnusedOffers', async (t) => {
  const window = { startMs: START_MS - 60_000, durationMs: 3_600_000 };
  const cases: { name: string; options: { maintenanceMode?: boolean; drainingMs?: number }; unavailability: typeof window; maintenance: number; launched: number }[] = [
    { name: 'two agents in a window, one without (the trial)', options: {}, unavailability: window, maintenance: 2, launched: 2 },
    { name: 'windows starting within the draining seconds', options: { drainingMs: 300_000 }, unavailability: { startMs: START_MS + 200_000, durationMs: 3_600_000 }, maintenance: 2, launched: 2 },
    { name: 'maintenance mode off', options: { maintenanceMode: false }, unavailability: window, maintenance: 0, launched: 4 },
  ];
  for (const c of cases) {
    const fx = makeApi({ options: c.options });
    fx.harness.put(makeApp({ id: '/web', instances: 5, cpus: 1 }));
    const inWindow = (id: string) => ({ ...makeOffer({ offerId: id, cpus: 1, agent: { hostname: id } }), unavailability: c.unavailability });
    fx.harness.offer(inWindow('m1'), inWindow('m2'), makeOffer({ offerId: 'free', cpus: 2, agent: { hostname: 'free' } }));
    const [entry] = (await getQueue(fx, '?embed=lastUnusedOffers')).queue;
    await fx.app.close();
    t.equal(entry.count, 5 - c.launched, `${c.name}: ${c.launched} launched`);
    const summary = entry.processedOffersSummary;
    t.equal(summary.unusedOffersCount, c.maintenance, `${c.name}: unused offers`);
    const step = (list: typeof summary.rejectSummaryLaunchAttempt) => list.find((s) => s.reason === 'UnfulfilledConstraint');
    t.same(step(summary.rejectSummaryLaunchAttempt), { reason: 'UnfulfilledConstraint', declined: c.maintenance, processed: 3 }, `${c.name}: rejectSummaryLaunchAttempt`);
    t.same(step(summary.rejectSummaryLastOffers), { reason: 'UnfulfilledConstraint', declined: c.maintenance, processed: c.maintenance }, `${c.name}: rejectSummaryLastOffers`);
    const unused = (entry.lastUnusedOffers ?? []) as { offer: { id: string }; reason: string[] }[];
    t.same(unused.map((u) => [u.offer.id, u.reason]), c.maintenance === 0 ? [] : [['m1', ['UnfulfilledConstraint']], ['m2', ['UnfulfilledConstraint']]], `${c.name}: lastUnusedOffers`);
  }
});

function failingApp(fx: ApiFixture): void {
  fx.harness.put(makeApp({ id: '/flaky', backoff: { initialMs: 60_000, factor: 2, maxMs: 300_000 } }));
  const [launched] = fx.harness.offer(makeOffer());
  fx.harness.run(launched);
  fx.harness.status(launched.taskId, 'TASK_FAILED');
}

t.test('a backed-off app: overdue false with the seconds left; DELETE …/delay resets it (facts 90, 91)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  failingApp(fx);
  let [entry] = (await getQueue(fx)).queue;
  t.same(entry.delay, { timeLeftSeconds: 60, overdue: false });
  fx.harness.advance(20_500);
  [entry] = (await getQueue(fx)).queue;
  t.same(entry.delay, { timeLeftSeconds: 39, overdue: false }, 'whole seconds, truncated');

  const res = await fx.app.inject({ method: 'DELETE', url: '/v2/queue/flaky/delay' });
  t.equal(res.statusCode, 204);
  t.equal(res.body, '');
  t.equal(fx.harness.scheduler.backoffUntilMs('/flaky'), undefined, 'the core forgot the delay');
  [entry] = (await getQueue(fx)).queue;
  t.same(entry.delay, { timeLeftSeconds: 0, overdue: true });
  t.equal(fx.harness.offer(makeOffer()).length, 1, 'launches at once');
});

t.test('the delay ends on its own', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  failingApp(fx);
  fx.harness.advance(60_000);
  const [entry] = (await getQueue(fx)).queue;
  t.same(entry.delay, { timeLeftSeconds: 0, overdue: true });
});

t.test('DELETE /v2/queue/{id}/delay errors', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.deploy(makeApp({ id: '/prod/running' }));
  const cases: [string, number, unknown][] = [
    ['/v2/queue/nope/delay', 404, { message: 'Application /nope not found in tasks queue.', details: [] }],
    ['/v2/queue/prod/running/delay', 404, { message: 'Application /prod/running not found in tasks queue.', details: [] }],
    ['/v2/queue/delay', 404, { message: 'URI not found: DELETE /v2/queue/delay', details: [] }],
    ['/v2/queue/prod/running', 404, { message: 'URI not found: DELETE /v2/queue/prod/running', details: [] }],
  ];
  for (const [url, status, expected] of cases) {
    const res = await fx.app.inject({ method: 'DELETE', url });
    t.equal(res.statusCode, status, url);
    t.same(JSON.parse(res.body), expected, url);
  }
});

t.test('a nested id waiting in the queue resets too', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.put(makeApp({ id: '/prod/web' }));
  const res = await fx.app.inject({ method: 'DELETE', url: '/v2/queue/prod/web/delay' });
  t.equal(res.statusCode, 204);
  const trailing = await fx.app.inject({ method: 'DELETE', url: '/v2/queue//prod/web/delay/' });
  t.equal(trailing.statusCode, 204, 'slashes collapsed, trailing slash ignored');
});
