import t from 'tap';
import { ApiFailure, failureOf } from '../../ui/src/api/client';
import { keptAfterFailure } from '../../ui/src/api/poll-failure';
import { startPollLoop, type PollEnv } from '../../ui/src/api/poll-loop';
import type { App, Deployment, HeldUnhealthyKills, Info, QueueEntry } from '../../ui/src/api/wire';
import { floorSourceText, heldKillsHeadline } from '../../ui/src/model/held-kills-text';
import { appStatus, healthSummary, noInstancesText, podRunStatus } from '../../ui/src/model/app-status';
import { clusterLabel, clusterLine, infoFailureText, isSimCluster, simPageState } from '../../ui/src/model/cluster';
import { eventMatches, eventSummary } from '../../ui/src/model/event-summary';
import { groupByAgent } from '../../ui/src/model/per-agent';
import { backoffVerdict } from '../../ui/src/model/queue-text';
import { reasonText } from '../../ui/src/model/reasons';
import { parseRoute, routeHref, type Route } from '../../ui/src/model/route';
import { SseParser } from '../../ui/src/model/sse-parser';
import { shallowChanged } from '../../ui/src/model/shallow-changed';
import { laterStepText, waitingLines } from '../../ui/src/model/waiting-text';
import { NO_MATCH_REASONS } from '../../src/scheduler/model/no-match-reason';

/** The web UI's pure logic (ui/src/model), run in Node: routes, the SSE parser, the texts it shows. */

t.test('every page has a URL under /ui/ that parses back to it', async (t) => {
  const cases: [string, Route][] = [
    ['/ui/', { page: 'apps' }],
    ['/ui', { page: 'apps' }],
    ['/ui/apps', { page: 'apps' }],
    ['/ui/apps/web', { page: 'app', id: '/web' }],
    ['/ui/apps/prod/db/primary', { page: 'app', id: '/prod/db/primary' }],
    ['/ui/pods/cache', { page: 'pod', id: '/cache' }],
    ['/ui/deployments', { page: 'deployments' }],
    ['/ui/deployments/', { page: 'deployments' }],
    ['/ui/queue', { page: 'queue' }],
    ['/ui/events', { page: 'events' }],
    ['/ui/groups', { page: 'groups' }],
    ['/ui/simulation', { page: 'simulation' }],
    ['/ui/create', { page: 'create' }],
    ['/ui/nope', { page: 'unknown', path: '/ui/nope' }],
    ['/ui/queue/x', { page: 'unknown', path: '/ui/queue/x' }],
    ['/elsewhere', { page: 'unknown', path: '/elsewhere' }],
  ];
  for (const [path, route] of cases) {
    t.same(parseRoute(path), route, path);
    if (route.page !== 'unknown') t.same(parseRoute(routeHref(route)), route, `${path} round trip`);
  }
  t.equal(routeHref({ page: 'app', id: '/a b/c' }), '/ui/apps/a%20b/c', 'ids are URL-encoded segment by segment');
  t.same(parseRoute('/ui/apps/a%20b/c'), { page: 'app', id: '/a b/c' });
});

t.test('the SSE parser reads Marathon frames in any chunking', async (t) => {
  const stream = 'event: api_post_event\r\ndata: {"eventType":"api_post_event","n":1}\r\n\r\n\r\n'
    + ': comment\nevent: status_update_event\ndata: {"a":\ndata: 2}\n\n'
    + 'data: no name\r\r'
    + 'event: only-a-name\n\n';
  const expected = [
    { event: 'api_post_event', data: '{"eventType":"api_post_event","n":1}' },
    { event: 'status_update_event', data: '{"a":\n2}' },
    { event: 'message', data: 'no name' },
  ];
  for (const size of [1, 2, 3, 7, stream.length]) {
    const parser = new SseParser();
    const got = [];
    for (let i = 0; i < stream.length; i += size) got.push(...parser.feed(stream.slice(i, i + size)));
    t.same(got, expected, `chunks of ${size}`);
  }
});

t.test('waitingFor becomes sentences, most blocking first, rejections by count', async (t) => {
  const cases: { name: string; w: Parameters<typeof waitingLines>[0]; texts: string[]; reasons?: string[] }[] = [
    { name: 'nothing', w: undefined, texts: [] },
    { name: 'done', w: { unplaced: 0, rejections: {}, notHealthy: 0, notReady: 0, toReplace: 0 }, texts: [] },
    {
      name: 'unplaced with reasons', w: { unplaced: 2, rejections: { InsufficientMemory: 3, InsufficientCpus: 12, UnfulfilledRole: 0 } },
      texts: ['2 instances not placed: offers were declined'], reasons: ['InsufficientCpus', 'InsufficientMemory'],
    },
    { name: 'unplaced, no offer yet', w: { unplaced: 1, rejections: {} }, texts: ['1 instance not placed: no offer has been matched yet'], reasons: [] },
    {
      name: 'a rolling restart', w: { unplaced: 0, notHealthy: 1, notReady: 2, toReplace: 3 },
      texts: [
        '1 instance of the new version not running and healthy yet',
        '2 instances healthy but not ready yet (readiness check)',
        '3 old instances still to replace or stop',
      ],
    },
  ];
  for (const c of cases) {
    const lines = waitingLines(c.w);
    t.same(lines.map((l) => l.text), c.texts, c.name);
    if (c.reasons !== undefined) t.same(lines[0]?.reasons.map((r) => r.reason), c.reasons, `${c.name}: reasons`);
  }
  const [line] = waitingLines({ unplaced: 1, rejections: { UnfulfilledConstraint: 4 } });
  t.match(line?.reasons[0], { count: 4, text: /constraint/ });
});

t.test("an app whose deployment step is not the current one is told what the current step waits for", async (t) => {
  // Found in a browser trial: /stack/api depends on /stack/db, which no agent can place; the api's
  // page said only "deployment …, step 2 of 3".
  const d: Deployment = {
    id: 'd1', version: 'v', affectedApps: ['/stack/api', '/stack/db'], affectedPods: [], currentStep: 2, totalSteps: 3,
    steps: [
      { actions: [{ action: 'StartApplication', app: '/stack/api' }, { action: 'StartApplication', app: '/stack/db' }] },
      { actions: [{ action: 'ScaleApplication', app: '/stack/db' }] },
      { actions: [{ action: 'ScaleApplication', app: '/stack/api' }] },
    ],
    currentActions: [{ action: 'ScaleApplication', app: '/stack/db', waitingFor: { unplaced: 1, rejections: { InsufficientCpus: 6 } } }],
  };
  t.equal(laterStepText(d, '/stack/db'), undefined, 'the current step acts on /stack/db: its waitingFor says why');
  t.equal(laterStepText(d, '/stack/api'), 'Its ScaleApplication is step 3 of 3: it waits for step 2 (ScaleApplication /stack/db) to finish.');
  const done: Deployment = { ...d, steps: [d.steps[0], d.steps[2], d.steps[1]], currentStep: 3 };
  t.equal(laterStepText(done, '/stack/api'), 'Its part of the deployment is done; step 3 of 3 (ScaleApplication /stack/db) is still running.');
});

t.test('a backed-off run spec gets a verdict on the queue page, not only a delay', async (t) => {
  // Found in a browser trial: the queue entry of an app whose command exits 1 showed empty funnels
  // and no verdict: "why is my app not starting?" had no answer in words on the queue page.
  t.equal(backoffVerdict({ delay: { overdue: false, timeLeftSeconds: 34 } }, 'app'),
    "Launches are backed off for 34 s more, after tasks that failed (the app's page shows the last task failure); resetting the delay (queue page) retries at the next offer.");
  t.match(backoffVerdict({ delay: { overdue: false, timeLeftSeconds: 2 } }, 'pod'), /the pod's page/);
  t.equal(backoffVerdict({ delay: { overdue: true, timeLeftSeconds: 0 } }, 'app'), undefined, 'not backed off: the funnels say why');
});

t.test('every rejection reason the core records has an explanation', async (t) => {
  for (const reason of NO_MATCH_REASONS) t.not(reasonText(reason), reason, reason);
  t.equal(reasonText('SomethingNew'), 'SomethingNew', 'an unknown reason is shown as is');
});

const app = (over: Partial<App>): App => ({
  id: '/a', instances: 2, cpus: 1, mem: 64, disk: 0, version: 'v', tasksStaged: 0, tasksRunning: 2, tasksHealthy: 0, tasksUnhealthy: 0, deployments: [], ...over,
});
const queued = (over: Partial<QueueEntry>): QueueEntry => ({
  count: 1, delay: { timeLeftSeconds: 0, overdue: true }, since: 's', role: '*',
  processedOffersSummary: { processedOffersCount: 0, unusedOffersCount: 0, rejectSummaryLastOffers: [], rejectSummaryLaunchAttempt: [] },
  ...over,
});

t.test('an app status says what Marathon UI said', async (t) => {
  const cases: [string, App, QueueEntry | undefined, string][] = [
    ['running', app({}), undefined, 'Running'],
    ['deploying', app({ deployments: [{ id: 'd' }] }), undefined, 'Deploying'],
    ['waiting for offers', app({ deployments: [{ id: 'd' }] }), queued({}), 'Waiting'],
    ['backed off', app({}), queued({ delay: { timeLeftSeconds: 5, overdue: false } }), 'Delayed'],
    ['suspended', app({ instances: 0, tasksRunning: 0 }), undefined, 'Suspended'],
    ['scaling to 0, still stopping', app({ instances: 0, tasksRunning: 1 }), undefined, 'Running'],
  ];
  for (const [name, a, q, status] of cases) t.equal(appStatus(a, q), status, name);
  t.same(healthSummary(app({ tasksRunning: 4, tasksHealthy: 2, tasksUnhealthy: 1, healthChecks: [{}] })), { healthy: 2, unhealthy: 1, unknown: 1, checked: true });
  t.same(healthSummary(app({ tasksRunning: 4 })), { healthy: 0, unhealthy: 0, unknown: 0, checked: false });
});

t.test("a pod's status is Waiting while it is queued, on the list and on its page alike", async (t) => {
  // Found in a browser trial: a pod asking for 100 cpus was "Waiting" on the list and "DEGRADED" on its own page.
  const queued = { count: 1, delay: { overdue: true, timeLeftSeconds: 0 } } as unknown as QueueEntry;
  t.equal(podRunStatus({ status: 'DEGRADED' }, queued), 'Waiting');
  t.equal(podRunStatus({ status: 'STABLE' }, undefined), 'STABLE');
  t.equal(podRunStatus({ status: 'DEGRADED' }, undefined), 'DEGRADED');
});

t.test('an app without instances is said to have none, not never to have launched any', async (t) => {
  const cases: [number, string][] = [
    [0, 'Suspended: 0 instances.'],
    [1, 'No instances (1 wanted).'],
    [3, 'No instances (3 wanted).'],
  ];
  for (const [wanted, text] of cases) t.equal(noInstancesText(wanted), text, `${wanted} wanted`);
});

t.test('events are summarized by what they are about and filtered by type and text', async (t) => {
  const status = { eventType: 'status_update_event', timestamp: 't', appId: '/web', taskId: 'web.1', taskStatus: 'TASK_RUNNING', host: 'agent-1', ports: [1] };
  t.equal(eventSummary(status), 'appId=/web taskId=web.1 host=agent-1 taskStatus=TASK_RUNNING');
  t.equal(eventSummary({ eventType: 'api_post_event', timestamp: 't', clientIp: '127.0.0.1', uri: '/v2/apps', appDefinition: { id: '/x' } }), 'app=/x uri=/v2/apps clientIp=127.0.0.1');
  t.equal(eventSummary({ eventType: 'deployment_success', timestamp: 't', plan: { id: 'p1' } }), 'deployment=p1');
  t.ok(eventMatches(status, new Set(), ''), 'no filter');
  t.ok(eventMatches(status, new Set(['status_update_event']), 'WEB'), 'type and case-insensitive text');
  t.notOk(eventMatches(status, new Set(['api_post_event']), ''), 'another type');
  t.notOk(eventMatches(status, new Set(), '/worker'), 'text not in it');
});

t.test('instances are grouped per agent, agents in natural order', async (t) => {
  const groups = groupByAgent([{ h: 'agent-10' }, { h: 'agent-2' }, { h: null }, { h: 'agent-2' }], (x) => ({ id: x.h, hostname: x.h }));
  t.same(groups.map((g) => [g.agent, g.items.length]), [['(unplaced)', 1], ['agent-2', 2], ['agent-10', 1]]);
  t.ok(groups.every((g) => g.agentId === undefined), 'an agent whose id is its hostname is named once');
});

t.test('agents sharing a hostname (--local_agents 2, both 127.0.0.1) are two groups, each naming its agent id', async (t) => {
  // Found in a browser trial: an app spread over local-agent-1 and local-agent-2 by a GROUP_BY
  // constraint showed as one agent "127.0.0.1 (4)", as the page grouped by hostname.
  const tasks = [
    { host: '127.0.0.1', slaveId: 'local-agent-2' }, { host: '127.0.0.1', slaveId: 'local-agent-1' },
    { host: '127.0.0.1', slaveId: 'local-agent-2' }, { host: '127.0.0.1', slaveId: 'local-agent-10' },
  ];
  const groups = groupByAgent(tasks, (x) => ({ id: x.slaveId, hostname: x.host }));
  t.same(groups.map((g) => [g.agent, g.agentId, g.items.length]), [
    ['127.0.0.1', 'local-agent-1', 1], ['127.0.0.1', 'local-agent-2', 2], ['127.0.0.1', 'local-agent-10', 1],
  ]);
  t.equal(new Set(groups.map((g) => g.key)).size, 3, 'each group has its own key');
  const podInstances = [{ agentHostname: 'h1' }, { agentId: 'a2' }, {}];
  t.same(groupByAgent(podInstances, (i) => ({ id: (i as { agentId?: string }).agentId, hostname: (i as { agentHostname?: string }).agentHostname }))
    .map((g) => [g.agent, g.agentId]), [['(unplaced)', undefined], ['a2', undefined], ['h1', undefined]], 'a missing id or hostname falls back to the other');
});

t.test('a failed read keeps the last answer, except a 404: what it showed is gone', async (t) => {
  // Found in a browser trial: an app deleted through the API while its page was open stayed on the
  // page as Running with its 2 instances and every action button, under "404 App '/victim' does not exist".
  const last = { app: { id: '/victim' } };
  const failure = (status: number): ApiFailure => new ApiFailure(status, 'x', undefined, 'GET /v2/apps/victim');
  t.equal(keptAfterFailure(last, failure(0)), last, 'no answer (pacer restarting): kept');
  t.equal(keptAfterFailure(last, failure(503)), last, '503: kept');
  t.equal(keptAfterFailure(last, failure(403)), last, '403: kept');
  t.equal(keptAfterFailure(last, failure(404)), undefined, '404: dropped');
});

t.test('a poll reads nothing while the page is hidden, and reads at once when it is shown again', async (t) => {
  // Found in a browser trial with 800 apps: every open page, background tabs too, read
  // /v2/apps?embed=… (590 KB) and the rest every 2 s for as long as the tab stayed open.
  let hidden = false;
  let tick: () => void = () => undefined;
  let visibility: () => void = () => undefined;
  let cleared = false;
  let unsubscribed = false;
  const env: PollEnv = {
    setInterval: (fn) => { tick = fn; return 1; },
    clearInterval: () => { cleared = true; },
    hidden: () => hidden,
    onVisibilityChange: (fn) => { visibility = fn; return () => { unsubscribed = true; }; },
  };
  let reads = 0;
  const pending: (() => void)[] = [];
  const read = (): Promise<void> => new Promise((resolve) => { reads++; pending.push(resolve); });
  const settle = async (): Promise<void> => {
    while (pending.length > 0) {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const loop = startPollLoop(read, 2000, env);
  t.equal(reads, 1, 'reads at once');
  await settle();
  tick();
  await settle();
  t.equal(reads, 2, 'reads on the interval while visible');
  hidden = true;
  visibility();
  tick();
  tick();
  await settle();
  t.equal(reads, 2, 'reads nothing while hidden');
  loop.run();
  await settle();
  t.equal(reads, 3, "an action's refresh reads even while hidden");
  tick();
  hidden = false;
  visibility();
  await settle();
  t.equal(reads, 4, 'shown again after a missed interval: reads at once');
  visibility();
  await settle();
  t.equal(reads, 4, 'a visibility change with nothing missed reads nothing');
  loop.run();
  loop.run();
  await settle();
  t.equal(reads, 6, 'a refresh asked during a read follows it, once');
  loop.stop();
  t.ok(cleared && unsubscribed, 'stop clears the interval and the visibility listener');
  loop.run();
  t.equal(reads, 6, 'nothing after stop');
});

t.test("API failures carry Marathon's message and details", async (t) => {
  const f422 = failureOf(422, { message: 'Object is not valid', details: [{ path: '/cpus', errors: ['error.min'] }] }, '', 'POST /v2/apps');
  t.match(f422, { status: 422, message: 'Object is not valid', details: [{ path: '/cpus' }], request: 'POST /v2/apps' });
  const f409 = failureOf(409, { message: 'App is locked', deployments: [{ id: 'd1' }] }, '', 'PUT /v2/apps/a');
  t.same(f409.details, [{ id: 'd1' }], 'a lock names its deployments');
  const plain = failureOf(502, undefined, 'Bad gateway', 'GET /v2/apps');
  t.equal(plain.message, 'GET /v2/apps answered 502: Bad gateway');
});

t.test('held unhealthy kills (kill-storm floor) read as a headline and where the floor comes from', async (t) => {
  const kill = { instanceId: 'storm.instance-1', taskId: 'storm.instance-1._app.1', reason: 'HTTP health check failed 3 times consecutively (HTTP 500)', since: '2026-01-01T00:01:12.000Z', host: 'h1' };
  const base: HeldUnhealthyKills = {
    appId: '/storm', instances: 10, floor: 9, counted: 9, floorCapacity: 1, floorSource: 'minimumHealthCapacity', message: '', kills: Array(9).fill(kill),
  };
  const cases: [string, HeldUnhealthyKills, string, string][] = [
    ['the default', base, '9 unhealthy kills held: 9 of 10 instances kept running (floor 9)',
      'upgradeStrategy.minimumHealthCapacity 1 (set the label PACER_UNHEALTHY_KILL_FLOOR to change it)'],
    ['a label, one kill', { ...base, instances: 4, floor: 2, counted: 2, floorCapacity: 0.5, floorSource: 'label', kills: [kill] },
      '1 unhealthy kill held: 2 of 4 instances kept running (floor 2)', 'label PACER_UNHEALTHY_KILL_FLOOR = 0.5'],
    ['the flag', { ...base, floor: 5, counted: 5, floorCapacity: 0.5, floorSource: 'flag', kills: [kill, kill] },
      '2 unhealthy kills held: 5 of 10 instances kept running (floor 5)', '--unhealthy_kill_floor 0.5'],
  ];
  for (const [name, held, headline, source] of cases) {
    t.equal(heldKillsHeadline(held), headline, `${name}: headline`);
    t.equal(floorSourceText(held), source, `${name}: source`);
  }
});

t.test("/v2/info's master names the cluster, and only the simulator's has the simulation page", async (t) => {
  const cases: [string, string, boolean][] = [
    ['sim://6 simulated agent(s), workload demo', 'simulated cluster', true],
    ['local://1 agent(s) on this host', 'local cluster', false],
    ['http://mesos.example:5050', 'Mesos http://mesos.example:5050', false],
    ['zk://zk-1:2181,zk-2:2181/mesos', 'Mesos zk://zk-1:2181,zk-2:2181/mesos', false],
  ];
  for (const [master, label, sim] of cases) {
    const info: Info = { name: 'marathon', version: '1.11.26', leader: '127.0.0.1:8080', frameworkId: null, marathon_config: { master, mesos_role: '*' } };
    t.equal(clusterLabel(info), label, master);
    t.equal(isSimCluster(info), sim, `${master}: ${sim ? '' : 'no '}simulation page`);
  }
});

t.test('the simulation page says it cannot tell when /v2/info is refused, rather than loading for ever', async (t) => {
  // Found in a browser trial: a principal granted only /team-a (README, "Who may call") gets 403
  // for /v2/info, and the simulation page opened by its URL said "Loading…" for ever.
  const info = (master: string): Info => ({ name: 'marathon', version: '1.11.26', leader: 'l', frameworkId: null, marathon_config: { master, mesos_role: '*' } });
  t.equal(simPageState(undefined, false), 'loading', 'no answer yet');
  t.equal(simPageState(undefined, true), 'unknown', '/v2/info refused or unanswered before any answer');
  t.equal(simPageState(info('sim://demo'), false), 'sim');
  t.equal(simPageState(info('sim://demo'), true), 'sim', 'a later failed read keeps the last answer');
  t.equal(simPageState(info('local://1 agent(s)'), false), 'not-sim');
});

t.test('the header says pacer is unreachable once a read of the shell gets no answer, even after /v2/info answered', async (t) => {
  // Found in a browser trial: with pacer stopped under an open page, the header kept saying
  // "local cluster · v1.11.26" (its /v2/info is read every 30 s), and the Create page showed nothing wrong.
  const info: Info = { name: 'marathon', version: '1.11.26', leader: 'l', frameworkId: null, marathon_config: { master: 'local://1 agent(s)', mesos_role: '*' } };
  t.equal(clusterLine(info, undefined, [undefined, undefined]), 'local cluster · v1.11.26');
  t.equal(clusterLine(info, undefined, [0, undefined]), 'pacer unreachable', 'the deployments read got no answer');
  t.equal(clusterLine(info, 0, [undefined, undefined]), 'pacer unreachable');
  t.equal(clusterLine(info, undefined, [503, undefined]), 'local cluster · v1.11.26', 'an answer, even an error, is not unreachable');
  t.equal(clusterLine(undefined, 403, [undefined, undefined]), 'cluster details not permitted');
  t.equal(clusterLine(undefined, undefined, [undefined, undefined]), '', 'nothing yet');
});

t.test('the header names why /v2/info failed: only no answer is "unreachable"', async (t) => {
  const rows: [number, string][] = [
    [0, 'pacer unreachable'], [401, 'not signed in'], [403, 'cluster details not permitted'], [503, 'pacer answered 503'],
  ];
  for (const [status, text] of rows) t.equal(infoFailureText(status), text, String(status));
});

t.test('a row of plain values renders again only when one of them changed', async (t) => {
  // The apps list re-parses every app each poll; its rows compare what they show (apps-view.tsx AppRow).
  const row = { id: '/web', status: 'Running', running: 2, target: 2, healthy: 2, cpus: 0.1 };
  const rows: readonly { next: Record<string, unknown>; changed: boolean; why: string }[] = [
    { next: { ...row }, changed: false, why: 'an equal copy (a new poll of an unchanged app)' },
    { next: { ...row, running: 1 }, changed: true, why: 'a count' },
    { next: { ...row, status: 'Deploying' }, changed: true, why: 'the status' },
    { next: { ...row, cpus: 0.2 }, changed: true, why: 'a resource' },
    { next: { id: '/web', status: 'Running', running: 2, target: 2, healthy: 2 }, changed: true, why: 'a field fewer' },
  ];
  for (const r of rows) t.equal(shallowChanged(row, r.next as typeof row), r.changed, r.why);
});
