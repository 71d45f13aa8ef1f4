import http from 'node:http';
import t, { type Test } from 'tap';
import { DEFAULT_KEEP_ALIVE_MS } from '../../src/api/events/event-stream-hub';
import { basic, openAuth } from '../api/auth/auth-kit';
import { RawSseClient } from '../api/events/raw-sse-client';
import { startSseServer, type SseServer } from '../api/events/sse-server-fixture';
import { waitUntil } from '../api/events/wait-until';
import { app, behaviour, MARATHON, pacer, type Pacer } from './conformance-kit';

// Requests exactly as nixy (github.com/martensson/nixy, master 854e4cb, 2019; Go 1.19's net/http)
// sends them, and the fields it reads, pinned so a change of pacer cannot break its users
// unnoticed. nixy was run unchanged against a real pacer on 2026-12-01, driving a real nginx; no
// part of it is a dependency of this test. What it does (marathon.go, nixy.go):
// - every 2 s `GET /ping` (5 s timeout, Basic auth when configured): an endpoint is healthy on 200;
// - `GET /v2/events` with `Accept: text/event-stream` (Go adds `User-Agent: Go-http-client/1.1`
//   and `Accept-Encoding: gzip`), read line by line (`ReadString('\n')`): every line starting with
//   `event: ` queues a resync, and a stream that yields no line for 15 s is cancelled and reopened;
// - each resync: `GET /v2/apps?embed=apps.tasks` with `Accept: application/json`, decoded with
//   encoding/json into Go structs (a field of the wrong JSON type fails the whole resync); it keeps
//   a task only if `ports` is not empty, `host` is set, `state` is `TASK_RUNNING` and, for an app
//   with `healthChecks`, `healthCheckResults` is not empty and every result is `alive`.

/** What Go's net/http client adds to nixy's requests. */
const GO_HEADERS = { 'User-Agent': 'Go-http-client/1.1', 'Accept-Encoding': 'gzip' } as const;

/** nixy's request for the apps and their tasks. */
const APPS_WITH_TASKS = '/v2/apps?embed=apps.tasks';

type Json = unknown;
type Shape = 'string' | 'int' | 'int[]' | 'bool' | 'string map' | { readonly [field: string]: Shape } | readonly [Shape];

/** The fields of nixy's MarathonApps struct (marathon.go) and their Go types. */
const NIXY_APPS: Shape = {
  apps: [{
    id: 'string',
    labels: 'string map',
    env: 'string map',
    portDefinitions: [{ port: 'int', protocol: 'string', name: 'string', labels: 'string map' }],
    container: {
      portMappings: [{ containerPort: 'int', hostPort: 'int', labels: 'string map', protocol: 'string', servicePort: 'int' }],
    },
    tasks: [{
      appId: 'string',
      healthCheckResults: [{ alive: 'bool' }],
      host: 'string',
      id: 'string',
      ports: 'int[]',
      servicePorts: 'int[]',
      slaveId: 'string',
      stagedAt: 'string',
      startedAt: 'string',
      state: 'string',
      version: 'string',
    }],
    healthChecks: [{ path: 'string' }],
  }],
};

/**
 * Where `value` would fail Go's encoding/json decoding into `shape` (absent and null fields
 * decode to zero values; unknown fields are ignored): the paths of the mismatches.
 */
function goDecodeErrors(value: Json, shape: Shape, path = '$'): string[] {
  if (value === undefined || value === null) return [];
  if (shape === 'string') return typeof value === 'string' ? [] : [path];
  if (shape === 'bool') return typeof value === 'boolean' ? [] : [path];
  if (shape === 'int') return Number.isSafeInteger(value) ? [] : [path];
  if (shape === 'int[]') return Array.isArray(value) && value.every((v) => Number.isSafeInteger(v)) ? [] : [path];
  if (shape === 'string map') {
    return typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' || v === null) ? [] : [path];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [path];
    return value.flatMap((v, i) => goDecodeErrors(v, shape[0], `${path}[${i}]`));
  }
  if (typeof value !== 'object' || Array.isArray(value)) return [path];
  const object = value as Record<string, Json>;
  return Object.entries(shape as Record<string, Shape>).flatMap(([field, s]) => goDecodeErrors(object[field], s, `${path}.${field}`));
}

interface NixyTask {
  readonly host?: string;
  readonly ports?: number[];
  readonly state?: string;
  readonly healthCheckResults?: { alive?: boolean }[];
}

/** The tasks nixy writes into nginx.conf for one app (syncApps in marathon.go), as `host:port`. */
function nixyServers(a: { healthChecks?: unknown[]; tasks?: NixyTask[] }): string[] {
  return (a.tasks ?? []).filter((task) => {
    if ((task.ports ?? []).length === 0 || !task.host || task.state !== 'TASK_RUNNING') return false;
    if ((a.healthChecks ?? []).length === 0) return true;
    const results = task.healthCheckResults ?? [];
    return results.length > 0 && results.every((r) => r.alive === true);
  }).map((task) => `${task.host}:${task.ports?.[0]}`);
}

/** nixy's resync request. */
async function resync(p: Pacer, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- inspected field by field
  const res = await p.call('GET', APPS_WITH_TASKS, undefined, { ...GO_HEADERS, ...headers });
  return { status: res.status, json: res.json };
}

/** The app of the trial: a `subdomain` label, env, a named port definition, a Marathon-run HTTP check. */
const HELLO = app('/web/hello', {
  instances: 2,
  labels: { subdomain: 'hello greet' },
  env: { APP_ENV: 'test' },
  portDefinitions: [{ port: 0, protocol: 'tcp', name: 'http', labels: { tier: 'web' } }],
  healthChecks: [{ protocol: 'HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 10, intervalSeconds: 2, timeoutSeconds: 2, maxConsecutiveFailures: 3 }],
});

/** Deploys HELLO and runs its instances; returns their instance ids. */
async function hello(t: Test, p: Pacer): Promise<string[]> {
  t.equal((await p.call('POST', '/v2/apps', HELLO)).status, 201, 'created /web/hello');
  p.runAll();
  return p.server.harness.instances('/web/hello').map((i) => i.instanceId);
}

t.test('the decoding check finds what would fail nixy\'s encoding/json, and passes absent and null fields', async (t) => {
  t.same(goDecodeErrors({ apps: [{ id: 1, labels: { a: 1 }, tasks: [{ ports: ['1'], healthCheckResults: [{ alive: 'true' }] }], container: null, env: undefined }] }, NIXY_APPS),
    ['$.apps[0].id', '$.apps[0].labels', '$.apps[0].tasks[0].healthCheckResults[0].alive', '$.apps[0].tasks[0].ports']);
  t.same(goDecodeErrors({ apps: [{ id: '/a', container: null, tasks: [] }] }, NIXY_APPS), []);
});

t.test(behaviour('nixy: GET /v2/apps?embed=apps.tasks decodes into nixy\'s structs without a type error, every field it reads in place (facts 35, 36, 40)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  const ids = await hello(t, p);
  for (const id of ids) p.server.harness.probeInstance(id, { httpStatus: 200 });
  t.equal((await p.call('POST', '/v2/apps', app('/web/br', {
    labels: { subdomain: 'br' },
    networks: [{ mode: 'container/bridge' }],
    container: { type: 'MESOS', portMappings: [{ containerPort: 0, hostPort: 0, protocol: 'tcp', name: 'http', labels: { VIP_0: '/br:80' } }] },
  }))).status, 201, 'created /web/br');
  p.runAll();
  const res = await resync(p);
  t.equal(res.status, 200);
  t.same(goDecodeErrors(res.json, NIXY_APPS), [], 'no field of a wrong JSON type');
  const byId = new Map<string, any>(res.json.apps.map((a: { id: string }) => [a.id, a])); // eslint-disable-line @typescript-eslint/no-explicit-any -- inspected field by field
  const h = byId.get('/web/hello');
  t.same(h.labels, { subdomain: 'hello greet' }, 'labels: the subdomain nixy routes by');
  t.same(h.env, { APP_ENV: 'test' });
  t.match(h.portDefinitions, [{ port: Number, protocol: 'tcp', name: 'http', labels: { tier: 'web' } }]);
  t.match(h.healthChecks, [{ path: '/' }]);
  t.equal(h.tasks.length, 2);
  for (const task of h.tasks) {
    t.match(task, { appId: '/web/hello', host: String, id: String, slaveId: String, state: 'TASK_RUNNING', stagedAt: String, startedAt: String, version: String });
    t.equal(task.ports.length, 1, 'one host port per port definition');
    t.same(task.servicePorts, [], 'app-scoped task lists carry "servicePorts":[] (fact 40)');
  }
  t.equal(nixyServers(h).length, 2, 'both tasks go into nginx.conf');
  const br = byId.get('/web/br');
  t.match(br.container.portMappings, [{ containerPort: 0, hostPort: 0, protocol: 'tcp', servicePort: Number, labels: { VIP_0: '/br:80' } }]);
  t.equal(nixyServers(br).length, 1, 'a bridge-networked task has its host port in ports');
});

t.test(behaviour('nixy\'s stream template: portDefinitions[i].port (the service port nginx listens on) and protocol pair with tasks[].ports[i] (facts 19, 40)', MARATHON.servicePorts), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/apps', app('/tcp/two', { portDefinitions: [{ port: 0, protocol: 'tcp', name: 'a' }, { port: 0, protocol: 'udp', name: 'b' }] }))).status, 201);
  p.runAll();
  const a = (await resync(p)).json.apps[0];
  t.same(goDecodeErrors({ apps: [a] }, NIXY_APPS), []);
  t.match(a.portDefinitions, [{ protocol: 'tcp', name: 'a' }, { protocol: 'udp', name: 'b' }]);
  const [first, second] = a.portDefinitions.map((d: { port: number }) => d.port);
  t.ok(first >= 10000 && second >= 10000 && first !== second, `two service ports ${first}, ${second}`);
  t.equal(a.tasks[0].ports.length, 2, 'one host port per port definition, in order');
});

t.test(behaviour('nixy: a task of a health-checked app is routed only once every healthCheckResults entry is alive: [] before its first check, alive:false after a failed one', MARATHON.healthChecks), async (t) => {
  const p = await pacer(t);
  const ids = await hello(t, p);
  const servers = async (): Promise<string[]> => nixyServers((await resync(p)).json.apps[0]);
  const before = (await resync(p)).json.apps[0];
  t.same(before.tasks.map((task: NixyTask) => task.healthCheckResults), [[], []], 'running but not yet checked: no result');
  t.same(await servers(), [], 'so nixy routes to neither');
  p.server.harness.probeInstance(ids[0], { httpStatus: 200 });
  t.equal((await servers()).length, 1, 'the checked one only');
  p.server.harness.probeInstance(ids[1], { httpStatus: 200 });
  t.equal((await servers()).length, 2);
  p.server.harness.advance(2_000);
  p.server.harness.probeInstance(ids[1], { httpStatus: 503 });
  const after = (await resync(p)).json.apps[0];
  const failed = after.tasks.find((task: { id: string }) => task.id.startsWith(`${ids[1]}.`));
  t.match(failed, { state: 'TASK_RUNNING', healthCheckResults: [{ alive: false, consecutiveFailures: 1 }] }, 'still running, not alive');
  t.equal(nixyServers(after).length, 1, 'nixy drops it');
});

/** Reads a response as nixy does: line by line on '\n', the lines kept as they arrive. */
function openLines(base: string, headers: http.OutgoingHttpHeaders): Promise<{ status: number; headers: http.IncomingHttpHeaders; lines: string[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/v2/events`, { headers, agent: false }, (res) => {
      const lines: string[] = [];
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        rest += chunk;
        for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
          lines.push(rest.slice(0, i + 1));
          rest = rest.slice(i + 1);
        }
      });
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

t.test(behaviour('nixy: its GET /v2/events (Accept: text/event-stream, Accept-Encoding: gzip) → 200, not compressed, `event: ` lines, the first event_stream_attached, then one per change (facts 101, 103)', MARATHON.eventServlet), async (t) => {
  const p = await pacer(t);
  const stream = await openLines(p.base, { Accept: 'text/event-stream', ...GO_HEADERS });
  t.teardown(() => stream.close());
  t.equal(stream.status, 200);
  t.equal(stream.headers['content-type'], 'text/event-stream;charset=UTF-8');
  t.equal(stream.headers['content-encoding'], undefined, 'gzip asked for, identity sent: nixy reads the lines as they come');
  const events = (): string[] => stream.lines.filter((l) => l.startsWith('event: ')).map((l) => l.slice('event: '.length).trim());
  await waitUntil(() => events().length > 0, 'the first event line');
  t.equal(events()[0], 'event_stream_attached');
  t.equal((await p.call('POST', '/v2/apps', app('/a'))).status, 201);
  await waitUntil(() => events().includes('api_post_event'), 'an event line for the change');
  t.ok(stream.lines.every((l) => l.endsWith('\n')), 'every line ends in \\n, as ReadString(\'\\n\') reads it');
});

t.test(behaviour('nixy: an idle stream yields a line before nixy\'s 15 s no-data timeout: keep-alives every 10 s by default (fact 102)', MARATHON.eventHandle), async (t) => {
  t.ok(DEFAULT_KEEP_ALIVE_MS < 15_000, `the default keep-alive period (${DEFAULT_KEEP_ALIVE_MS} ms) is below nixy's 15 s`);
  const server = await startSseServer({ keepAliveMs: 50 });
  t.teardown(() => server.app.close());
  const stream = await openLines(server.baseUrl, { Accept: 'text/event-stream', ...GO_HEADERS });
  t.teardown(() => stream.close());
  await waitUntil(() => stream.lines.length > 0, 'the attached event');
  const seen = stream.lines.length;
  await waitUntil(() => stream.lines.slice(seen).includes('\r\n'), 'a keep-alive line with no event');
  t.pass('a bare line (no `event: `): it resets nixy\'s timer without a resync');
});

/** pacer behind `--http_credentials nixy:s3cret` (its default open path `/ping`). */
async function withCredentials(t: Test): Promise<SseServer> {
  const server = await startSseServer({ auth: openAuth({ httpCredentials: 'nixy:s3cret' }) });
  t.teardown(() => server.app.close());
  return server;
}

async function get(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: await res.text() };
}

t.test(behaviour('nixy with user/pass: /ping (its endpoint health, Basic auth sent) → 200 pong (fact 96; also without credentials, by pacer\'s --http_auth_open_paths default, where Marathon answers 401: fact 16); /v2/apps and /v2/events need them', MARATHON.system), async (t) => {
  const server = await withCredentials(t);
  const auth = { Authorization: basic('nixy', 's3cret'), ...GO_HEADERS };
  for (const headers of [auth, { ...GO_HEADERS }]) {
    const ping = await get(server.baseUrl, '/ping', headers);
    t.equal(ping.status, 200, `/ping ${'Authorization' in headers ? 'with' : 'without'} credentials`);
    t.equal(ping.text.trim(), 'pong');
  }
  t.equal((await get(server.baseUrl, APPS_WITH_TASKS, { Accept: 'application/json', ...auth })).status, 200);
  t.equal((await get(server.baseUrl, APPS_WITH_TASKS, { Accept: 'application/json', ...GO_HEADERS })).status, 401, 'nixy configured without user: its resyncs fail');
  const stream = await RawSseClient.open(server.baseUrl, '/v2/events', { Accept: 'text/event-stream', ...auth });
  t.teardown(() => stream.close());
  t.equal(stream.statusCode, 200);
  await waitUntil(() => stream.parsed().events.length > 0, 'the attached event');
  t.equal(stream.parsed().events[0].event, 'event_stream_attached');
});
