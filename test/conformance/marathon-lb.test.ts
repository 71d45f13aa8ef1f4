import t from 'tap';
import { DEFAULT_KEEP_ALIVE_MS } from '../../src/api/events/event-stream-hub';
import { RawSseClient } from '../api/events/raw-sse-client';
import { startSseServer } from '../api/events/sse-server-fixture';
import type { SseEvent } from '../api/events/sse-parse';
import { waitUntil } from '../api/events/wait-until';
import { makeOffer } from '../builders/cluster-builders';
import { app, behaviour, MARATHON, pacer, runningApp, UUID, type Pacer, type Res } from './conformance-kit';

// Requests exactly as marathon-lb sends them, pinned so a change of pacer cannot break its users
// unnoticed. marathon-lb (github.com/mesosphere/marathon-lb, commit 9e669ec0 of 2020-09-25) was run
// unchanged against a real pacer on 2026-12-01, driving a real HAProxy 2.6, in both of its modes
// (one-shot and `--sse`), with `--health-check`; its zdd.py did blue/green deployments through
// the API. marathon-lb is no dependency of this test. What it sends and reads:
// - marathon_lb.py, `Marathon.api_req_raw` (python-requests): `GET /v2/apps?embed=apps.tasks` with
//   `Accept: application/json`, `Content-Type: application/json` (on a GET, no body) and
//   `User-Agent: marathon-lb`; it reads apps[].id, labels (indexed without a check:
//   `app['labels'][…]`), tasks, healthChecks (portIndex/port, protocol), portDefinitions[].port
//   (the service ports), container.portMappings, networks[].mode, versionInfo.lastScalingAt,
//   instances, and of each task id, host, state, ports, ipAddresses, healthCheckResults[].alive
//   (with `--health-check` a task whose results hold no `alive: true` is left out of the backend);
// - marathon_lb.py `--sse` (pycurl, `CurlHttpEventStream`): `GET /v2/events?plan-format=light&
//   event_type=api_post_event&event_type=health_status_changed_event&event_type=status_update_event`
//   with `Cache-Control: no-cache`, `Accept: text/event-stream` and `Accept-Encoding: gzip` (curl's
//   ENCODING option); it keeps the lines that start with `data: `, parses each as JSON and reads
//   `eventType`, then re-reads `GET /v2/apps?embed=apps.tasks` at once; any status but 200 is an
//   error; no byte for 300 s (LOW_SPEED_TIME) makes it reconnect;
// - zdd.py (python-requests, no Accept header: `*/*`): `GET /v2/apps`, `GET /v2/apps/<id>`,
//   `POST /v2/apps` with the app's legacy `ports`, `PUT /v2/apps/<id>` `{"instances":n}`,
//   `POST /v2/tasks/delete?scale=true` `{"ids":[…]}`, `DELETE /v2/apps/<id>`; it reads labels,
//   instances, tasks (host, ports, id), deployments.

const WAIT_MS = 60_000;

const LB_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': 'marathon-lb', 'Accept-Encoding': 'gzip, deflate' };
const LB_LIST = '/v2/apps?embed=apps.tasks';
const LB_EVENTS = '/v2/events?plan-format=light&event_type=api_post_event&event_type=health_status_changed_event&event_type=status_update_event';
const LB_EVENT_HEADERS = { 'Cache-Control': 'no-cache', Accept: 'text/event-stream', 'Accept-Encoding': 'gzip' };
const LB_EVENT_TYPES = ['api_post_event', 'health_status_changed_event', 'status_update_event'];

/** An app as marathon-lb users label theirs. */
function lbApp(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return app(id, {
    instances: 2,
    portDefinitions: [{ port: 0, name: 'http' }],
    labels: { HAPROXY_GROUP: 'external', HAPROXY_0_PORT: '24100', HAPROXY_0_VHOST: 'web.example.test' },
    ...overrides,
  });
}

/** A request as python-requests sends it without headers of its caller (zdd.py): `Accept: *\/*`, a JSON body typed by the caller. */
async function zdd(p: Pacer, method: string, path: string, body?: unknown): Promise<Res> {
  const headers: Record<string, string> = { Accept: '*/*', 'User-Agent': 'python-requests/2.28.1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${p.base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text === '' ? undefined : JSON.parse(text) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field, as marathon-lb reads them
type Json = any;

function taskOf(list: Res, appId: string, taskId: string): Json {
  return (list.json.apps as Json[]).find((a) => a.id === appId)?.tasks.find((x: Json) => x.id === taskId);
}

t.test(behaviour('marathon-lb: Marathon.list() → GET /v2/apps?embed=apps.tasks with its headers (a JSON Content-Type on a GET) → 200, every field it reads, `labels` written for an app without any (facts 36, 40)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/web', lbApp('/web'));
  await runningApp(t, p, '/plain');
  const res = await p.call('GET', LB_LIST, undefined, LB_HEADERS);
  t.equal(res.status, 200);
  // Gzipped as Marathon gzips (its requests library asks for gzip, deflate and decodes either, or none).
  t.equal(res.headers.get('content-encoding'), 'gzip', 'gzip: requests decodes it');
  const apps = res.json.apps as Json[];
  t.same(apps.map((a) => a.id).sort(), ['/plain', '/web']);
  const plain = apps.find((a) => a.id === '/plain');
  t.same(plain.labels, {}, '`labels` always written: marathon-lb indexes app[\'labels\'] unchecked');
  t.same(plain.tasks.length, 1);
  const web = apps.find((a) => a.id === '/web');
  t.same(web.labels, { HAPROXY_GROUP: 'external', HAPROXY_0_PORT: '24100', HAPROXY_0_VHOST: 'web.example.test' }, 'labels as given: HAPROXY_* drive the config');
  t.equal(web.instances, 2);
  t.equal(web.portDefinitions.length, 1);
  t.ok(web.portDefinitions[0].port >= 10000 && web.portDefinitions[0].port <= 20000, 'the assigned service port, not 0 (fact 19)');
  t.match(web.versionInfo, { lastScalingAt: String, lastConfigChangeAt: String }, 'HAPROXY_DEPLOYMENT_GROUP merging reads lastScalingAt');
  t.same(web.networks, [{ mode: 'host' }], 'networks[].mode: host networking, task host + ports');
  t.equal(web.tasks.length, 2);
  for (const task of web.tasks as Json[]) {
    t.match(task, { id: String, host: String, state: 'TASK_RUNNING', ports: [Number], ipAddresses: Array });
    t.not(task.host, '', 'a task without host is ignored');
    t.same(task.servicePorts, [], 'app-scoped task lists: servicePorts [] (fact 40)');
  }
});

t.test(behaviour('marathon-lb: container/bridge apps → container.portMappings[].servicePort assigned, networks [{mode: container/bridge}], tasks[].ports the host ports it routes to', MARATHON.servicePorts), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/bridged', app('/bridged', {
    container: { type: 'MESOS', portMappings: [{ containerPort: 8080, hostPort: 0, servicePort: 0, name: 'http' }] },
    networks: [{ mode: 'container/bridge' }],
    labels: { HAPROXY_GROUP: 'external' },
  }));
  const bridged = (await p.call('GET', LB_LIST, undefined, LB_HEADERS)).json.apps[0];
  t.same(bridged.networks, [{ mode: 'container/bridge' }]);
  t.ok(bridged.container.portMappings[0].servicePort >= 10000, 'the service port marathon-lb binds');
  t.match(bridged.tasks[0].ports, [Number], 'the host port it routes to');
});

t.test(behaviour('marathon-lb --health-check: healthChecks[].portIndex defaults to 0; a task is listed with healthCheckResults [] before its first result, then [{alive}] as each result comes (facts 30, 40)', MARATHON.healthChecks), async (t) => {
  const p = await pacer(t);
  await p.call('POST', '/v2/apps', lbApp('/web', { healthChecks: [{ protocol: 'MESOS_HTTP', path: '/' }] }));
  const launched = p.server.harness.offer(makeOffer());
  t.equal(launched.length, 2);
  for (const l of launched) p.server.harness.status(l.taskId, 'TASK_RUNNING');
  const list = async (): Promise<Res> => p.call('GET', LB_LIST, undefined, LB_HEADERS);
  const before = await list();
  t.match(before.json.apps[0].healthChecks, [{ protocol: 'MESOS_HTTP', portIndex: 0 }], 'get_health_check(app, 0) finds it by portIndex');
  t.same(taskOf(before, '/web', launched[0].taskId).healthCheckResults, [], 'present and empty: not alive, not in the backend yet');
  for (const l of launched) p.server.harness.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  t.match(taskOf(await list(), '/web', launched[0].taskId).healthCheckResults, [{ alive: true }]);
  p.server.harness.status(launched[0].taskId, 'TASK_RUNNING', { healthy: false });
  const after = await list();
  t.match(taskOf(after, '/web', launched[0].taskId).healthCheckResults, [{ alive: false }], 'leaves the backend');
  t.match(taskOf(after, '/web', launched[1].taskId).healthCheckResults, [{ alive: true }], 'stays');
});

t.test(behaviour('marathon-lb --sse: its request (plan-format=light, three event_type, no-cache, Accept-Encoding: gzip) → 200 identity text/event-stream; only its three types, `data: ` + one JSON line whose eventType it reads; the list it re-reads at each event already shows what the event says (facts 101-104, 107)', MARATHON.eventServlet), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, LB_EVENTS, LB_EVENT_HEADERS);
  t.teardown(() => client.close());
  t.equal(client.statusCode, 200, 'any other status is an error to it');
  t.equal(client.headers['content-type'], 'text/event-stream;charset=UTF-8');
  t.equal(client.headers['content-encoding'], undefined, 'identity bytes (curl decodes gzip or none)');
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);

  const seen = new Map<SseEvent, Res>();
  const has = (type: string, where: (e: SseEvent) => boolean = () => true): boolean => client.parsed().events.some((e) => e.event === type && where(e));
  /** As marathon-lb: at each event of interest, the list right away. */
  const settle = async (type: string, where: (e: SseEvent) => boolean): Promise<Res> => {
    await waitUntil(() => has(type, where), type, WAIT_MS);
    const event = client.parsed().events.find((e) => e.event === type && where(e)) as SseEvent;
    const list = await p.call('GET', LB_LIST, undefined, LB_HEADERS);
    seen.set(event, list);
    return list;
  };

  await p.call('POST', '/v2/apps', lbApp('/web', { healthChecks: [{ protocol: 'MESOS_HTTP', path: '/' }] }));
  await settle('api_post_event', (e) => (e.data.appDefinition as Json)?.id === '/web');
  const launched = p.server.harness.offer(makeOffer());
  p.server.harness.status(launched[0].taskId, 'TASK_RUNNING');
  const running = await settle('status_update_event', (e) => e.data.taskId === launched[0].taskId && e.data.taskStatus === 'TASK_RUNNING');
  t.equal(taskOf(running, '/web', launched[0].taskId)?.state, 'TASK_RUNNING', 'the running task is listed when its status_update_event arrives');
  p.server.harness.status(launched[0].taskId, 'TASK_RUNNING', { healthy: true });
  const healthy = await settle('health_status_changed_event', (e) => e.data.alive === true);
  t.match(taskOf(healthy, '/web', launched[0].taskId)?.healthCheckResults, [{ alive: true }], 'alive when its health event arrives');
  p.server.harness.status(launched[0].taskId, 'TASK_RUNNING', { healthy: false });
  const sick = await settle('health_status_changed_event', (e) => e.data.alive === false);
  t.match(taskOf(sick, '/web', launched[0].taskId)?.healthCheckResults, [{ alive: false }], 'not alive when its health event arrives');
  p.server.harness.status(launched[1].taskId, 'TASK_RUNNING');
  p.server.harness.status(launched[0].taskId, 'TASK_KILLED');
  const killed = await settle('status_update_event', (e) => e.data.taskId === launched[0].taskId && e.data.taskStatus === 'TASK_KILLED');
  t.equal(taskOf(killed, '/web', launched[0].taskId), undefined, 'a killed task is gone from the list when its event arrives');

  t.match(client.text, /^(event: [a-z_]+\r\ndata: \{[^\r\n]*\}\r\n\r\n|\r\n)+$/, 'frames `event:`, one `data: ` line of JSON, CRLF');
  const events = client.parsed().events;
  t.ok(events.length >= 5);
  t.same([...new Set(events.map((e) => e.event))].sort(), LB_EVENT_TYPES, 'only its three types: no event_stream_attached (fact 104)');
  for (const e of events) t.equal(e.data.eventType, e.event, 'data.eventType, what it dispatches on');
});

t.test(behaviour('marathon-lb --sse: a quiet stream filtered to its three types still carries bytes (a bare CRLF, every 10 s by default), far within curl\'s LOW_SPEED_TIME of 300 s (fact 102)', MARATHON.eventServlet), async (t) => {
  t.ok(DEFAULT_KEEP_ALIVE_MS <= 10_000, 'the default period');
  const server = await startSseServer({ keepAliveMs: 10 });
  t.teardown(() => server.app.close());
  const client = await RawSseClient.open(server.baseUrl, LB_EVENTS, LB_EVENT_HEADERS);
  t.teardown(() => client.close());
  await waitUntil(() => client.parsed().keepAlives >= 2, 'two keep-alives', WAIT_MS);
  t.equal(client.parsed().events.length, 0, 'nothing else: its filter leaves out event_stream_attached');
});

t.test(behaviour('zdd.py: GET /v2/apps and GET /v2/apps/<id> with requests\' Accept: */* → 200 JSON with labels, instances, tasks (host, ports, id), deployments', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/zapp-blue', lbApp('/zapp-blue'));
  const list = await zdd(p, 'GET', '/v2/apps');
  t.equal(list.status, 200);
  t.match(list.headers.get('content-type'), /^application\/json/);
  t.match(list.json.apps, [{ id: '/zapp-blue', labels: { HAPROXY_GROUP: 'external' } }]);
  const one = await zdd(p, 'GET', '/v2/apps/zapp-blue');
  t.equal(one.status, 200);
  t.match(one.json.app, { id: '/zapp-blue', instances: 2, deployments: [], tasks: [{ id: String, host: String, ports: [Number] }, { id: String }] });
});

t.test(behaviour('zdd.py: POST /v2/apps with the legacy `ports` → 201; the service port lands in portDefinitions and `ports` is never written back (fact 18)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  const res = await zdd(p, 'POST', '/v2/apps', app('/zapp-green', {
    instances: 1,
    ports: [24151],
    labels: { HAPROXY_GROUP: 'external', HAPROXY_DEPLOYMENT_GROUP: 'zapp', HAPROXY_DEPLOYMENT_ALT_PORT: '24151', HAPROXY_0_PORT: '24150', HAPROXY_DEPLOYMENT_COLOUR: 'green' },
  }));
  t.equal(res.status, 201);
  p.runAll();
  const got = (await zdd(p, 'GET', '/v2/apps/zapp-green')).json.app;
  t.match(got.portDefinitions, [{ port: 24151 }]);
  t.notOk('ports' in got, 'so zdd.select_next_port picks HAPROXY_DEPLOYMENT_ALT_PORT');
  t.equal(got.labels.HAPROXY_DEPLOYMENT_COLOUR, 'green');
});

t.test(behaviour('zdd.py: scale the new app (PUT {instances}), kill drained old tasks (POST /v2/tasks/delete?scale=true), delete the old app → 200 each (facts 58, 61)', MARATHON.tasks), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/zapp-blue', lbApp('/zapp-blue'));
  await runningApp(t, p, '/zapp-green', lbApp('/zapp-green', { instances: 1 }));
  const scaled = await zdd(p, 'PUT', '/v2/apps/zapp-green', { instances: 2 });
  t.equal(scaled.status, 200);
  t.match(scaled.json, { version: String, deploymentId: UUID });
  p.runAll();
  const blue = (await zdd(p, 'GET', '/v2/apps/zapp-blue')).json.app;
  const killed = await zdd(p, 'POST', '/v2/tasks/delete?scale=true', { ids: [blue.tasks[0].id] });
  t.equal(killed.status, 200);
  t.match(killed.json, { version: String, deploymentId: UUID });
  t.equal((await zdd(p, 'GET', '/v2/apps/zapp-blue')).json.app.instances, 1, 'scaled down by the killed task');
  const deleted = await zdd(p, 'DELETE', '/v2/apps/zapp-blue');
  t.equal(deleted.status, 200);
  t.match(deleted.json, { version: String, deploymentId: UUID });
});
