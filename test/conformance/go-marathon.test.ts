import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { RawSseClient } from '../api/events/raw-sse-client';
import { waitUntil } from '../api/events/wait-until';
import { behaviour, MARATHON, pacer, runningApp, TIMESTAMP, UUID, type Pacer, type Res } from './conformance-kit';

/** A write answered as Marathon answers it: 200 with the deployment's id and version (each row names its own text on failure). */
function answersDeployment(t: Test, res: Res): void {
  t.equal(res.status, 200, res.text);
  t.match(res.json, { deploymentId: UUID, version: TIMESTAMP });
}

// Requests exactly as go-marathon (github.com/gambol99/go-marathon at 94e7bcb, 2020-01-16, the
// client library of Traefik v1's Marathon provider) sends them, pinned so a change of pacer cannot
// break its users unnoticed. It was run unchanged against a real pacer on 2026-12-01 (alone and
// through an HA standby, with a leader failover); no Go code is a dependency of this test. What it
// sends:
// - every request, with or without a body, carries `Content-Type: application/json` and `Accept:
//   application/json` (Go's transport adds `Accept-Encoding: gzip`); `Groups()`, `GroupsBy()` and
//   `HasGroup()` send a GET whose body is the JSON string `""`;
// - an Application marshals `"ports": null` and `"dependencies": null` when unset (no `omitempty`),
//   also in the `{id, instances}` body of `ScaleApplicationInstances`; `RestartApplication` posts
//   `{}`; `KillTasks` posts `{"ids": [...]}` with `scale`/`wipe`/`force` only when true;
// - the event stream is one GET /v2/events (`EventsTransportSSE`) with `Accept: text/event-stream`
//   and `Cache-Control: no-cache` set by donovanhide/eventsource, no `event_type` filter.
// What it reads: a 2xx body is JSON-decoded into typed structs (a field of another JSON type fails
// the call), an empty 2xx body with `Marathon-Deployment-Id` gives the deployment id (DeletePod),
// 404 → ErrCodeNotFound, 409 with `deployments` → ErrCodeAppLocked, without → ErrCodeDuplicateID,
// 422 → ErrCodeInvalidBean from `{message, details}`, a 5xx marks the host down and tries another.
// Two calls fail against Marathon 1.11 itself, and against pacer the same way (pinned below):
// `KillTask` derives the app id from the task id by cutting at its last `.` (1.11 task ids end in
// `._app.<n>`), and `DeletePodInstance(s)` decodes `instanceId` as `{"idString": …}` where 1.11's
// RAML writer (raml/InstanceConversion.scala) gives a string. The one difference that was pacer's, an
// idle kept-alive connection closed after Node's 5 s (Marathon's Jetty: 30 s), which made a DELETE
// sent after a 6 s pause meet `connection reset by peer` (go-marathon then marks its host down), is
// pinned in test/runtime/api-listeners-protocol.test.ts.

/** The headers every go-marathon API call carries. */
const GO_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Encoding': 'gzip', 'User-Agent': 'Go-http-client/1.1' };

/** One request as Go's net/http writes it: a body (a string as is) even on GET. */
function goCall(base: string, method: string, path: string, body?: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...GO_HEADERS };
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body);
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // Go's transport asked for gzip itself (GO_HEADERS), so it gunzips a gzipped answer transparently.
        const raw = Buffer.concat(chunks);
        const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `webApp` of the trial: what `marathon.NewDockerApplication()` plus its setters marshal. */
const GO_APP = {
  id: '/gom/web', cmd: 'exec python3 -m http.server $PORT0 --bind 127.0.0.1', constraints: [['hostname', 'LIKE', '.*']], cpus: 0.05,
  healthChecks: [{ portIndex: 0, path: '/', maxConsecutiveFailures: 3, protocol: 'HTTP', gracePeriodSeconds: 30, intervalSeconds: 1, timeoutSeconds: 1 }],
  readinessChecks: [{ name: 'ready', protocol: 'HTTP', path: '/', portName: 'http', intervalSeconds: 2, timeoutSeconds: 1, httpStatusCodesForReady: [200] }],
  instances: 2, mem: 32, ports: null, portDefinitions: [{ port: 0, protocol: 'tcp', name: 'http' }],
  backoffSeconds: 1, backoffFactor: 1.15, maxLaunchDelaySeconds: 300, taskKillGracePeriodSeconds: 2, dependencies: null,
  upgradeStrategy: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.5 }, killSelection: 'OLDEST_FIRST',
  labels: { owner: 'gom', 'traefik.enable': 'true' }, env: { GOM: '1' },
};

type Kind = 'string' | 'number' | 'int' | 'boolean' | 'array' | 'object';

/** A JSON value fits a Go field of that kind (`null` fits every kind: Go leaves the field as is). */
function fits(value: unknown, kind: Kind): boolean {
  if (value === null || value === undefined) return true;
  switch (kind) {
    case 'int': return Number.isInteger(value);
    case 'array': return Array.isArray(value);
    case 'object': return typeof value === 'object' && !Array.isArray(value);
    default: return typeof value === kind;
  }
}

const HEALTH_CHECK: Record<string, Kind> = { gracePeriodSeconds: 'number', intervalSeconds: 'number', maxConsecutiveFailures: 'number', path: 'string', portIndex: 'number', protocol: 'string', timeoutSeconds: 'number' };
const STEP_ACTIONS: Record<string, Kind> = { action: 'string', type: 'string', app: 'string' };

/** go-marathon's event structs (events.go), field by field, for the types pacer emits here. */
const EVENT_FIELDS: Record<string, Record<string, Kind>> = {
  api_post_event: { eventType: 'string', clientIp: 'string', timestamp: 'string', uri: 'string', appDefinition: 'object' },
  status_update_event: { eventType: 'string', timestamp: 'string', slaveId: 'string', taskId: 'string', taskStatus: 'string', message: 'string', appId: 'string', host: 'string', ports: 'array', ipAddresses: 'array', version: 'string' },
  app_terminated_event: { eventType: 'string', timestamp: 'string', appId: 'string' },
  event_stream_attached: { remoteAddress: 'string', eventType: 'string', timestamp: 'string' },
  event_stream_detached: { remoteAddress: 'string', eventType: 'string', timestamp: 'string' },
  add_health_check_event: { appId: 'string', eventType: 'string', healthCheck: 'object', timestamp: 'string' },
  remove_health_check_event: { appId: 'string', eventType: 'string', healthCheck: 'object', timestamp: 'string' },
  health_status_changed_event: { eventType: 'string', timestamp: 'string', appId: 'string', taskId: 'string', version: 'string', alive: 'boolean' },
  group_change_success: { eventType: 'string', groupId: 'string', timestamp: 'string', version: 'string' },
  group_change_failed: { eventType: 'string', groupId: 'string', timestamp: 'string', version: 'string', reason: 'string' },
  deployment_success: { id: 'string', eventType: 'string', timestamp: 'string', plan: 'object' },
  deployment_failed: { id: 'string', eventType: 'string', timestamp: 'string' },
  deployment_info: { eventType: 'string', currentStep: 'object', timestamp: 'string', plan: 'object' },
  deployment_step_success: { eventType: 'string', currentStep: 'object', timestamp: 'string', plan: 'object' },
  deployment_step_failure: { eventType: 'string', currentStep: 'object', timestamp: 'string', plan: 'object' },
};

/** Where an event's JSON would fail go-marathon's `json.Decode` into its struct; [] when it decodes. */
function goDecodeErrors(type: string, data: Readonly<Record<string, unknown>>): string[] {
  const errors: string[] = [];
  const check = (where: string, obj: unknown, fields: Record<string, Kind>): void => {
    if (obj === null || obj === undefined) return;
    for (const [k, kind] of Object.entries(fields)) {
      const v = (obj as Record<string, unknown>)[k];
      if (!fits(v, kind)) errors.push(`${where}.${k}: ${JSON.stringify(v)} is not ${kind}`);
    }
  };
  check(type, data, EVENT_FIELDS[type]);
  if (Array.isArray(data.ports) && !data.ports.every((p) => Number.isInteger(p))) errors.push(`${type}.ports: not ints`);
  for (const ip of (data.ipAddresses as unknown[] | undefined) ?? []) check(`${type}.ipAddresses[]`, ip, { ipAddress: 'string', protocol: 'string' });
  check(`${type}.healthCheck`, data.healthCheck, HEALTH_CHECK);
  const steps = (s: unknown, where: string): void => {
    if (s === null || s === undefined) return;
    check(where, s, { actions: 'array' });
    for (const a of (s as { actions?: unknown[] }).actions ?? []) check(`${where}.actions[]`, a, STEP_ACTIONS);
  };
  steps(data.currentStep, `${type}.currentStep`);
  const plan = data.plan as Record<string, unknown> | undefined;
  if (plan !== undefined) {
    check(`${type}.plan`, plan, { id: 'string', version: 'string', original: 'object', target: 'object', steps: 'array' });
    for (const s of (plan.steps as unknown[] | undefined) ?? []) steps(s, `${type}.plan.steps[]`);
  }
  const env = (data.appDefinition as Record<string, unknown> | undefined)?.env as Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(env ?? {})) if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) errors.push(`${type}.appDefinition.env.${k}`);
  return errors;
}

interface Case {
  readonly name: string;
  readonly source: string;
  /** go-marathon's request(s) against an app `/c` with two running instances. */
  readonly request: (p: Pacer) => Promise<Res>;
  readonly check: (t: Test, res: Res) => void;
}

const tasksOf = async (p: Pacer): Promise<{ id: string }[]> => (await goCall(p.base, 'GET', '/v2/apps/c/tasks')).json.tasks;

const CASES: Case[] = [
  {
    name: 'CreateApplication → POST /v2/apps with `ports: null`, `dependencies: null`, env, labels, checks, constraints → 201, the app decodes',
    source: MARATHON.apps,
    request: (p) => goCall(p.base, 'POST', '/v2/apps', JSON.stringify(GO_APP)),
    check: (t, res) => {
      t.equal(res.status, 201, res.text);
      t.equal(res.json.id, '/gom/web');
      t.same(res.json.env, { GOM: '1' });
      t.same(res.json.labels, GO_APP.labels);
      t.same(res.json.constraints, GO_APP.constraints);
      t.equal(res.json.killSelection, 'OLDEST_FIRST');
      t.equal(res.json.instances, 2);
      t.match(res.json.deployments, [{ id: UUID }], 'Deployments []map[string]string');
      t.notOk('ports' in res.json, 'deprecated ports never written (fact 116)');
    },
  },
  {
    name: 'ScaleApplicationInstances(c, 3, false) → PUT /v2/apps/c {id, instances, ports: null, dependencies: null} → 200 {deploymentId, version}',
    source: MARATHON.apps,
    request: (p) => goCall(p.base, 'PUT', '/v2/apps/c', '{"id":"/c","instances":3,"ports":null,"dependencies":null}'),
    check: answersDeployment,
  },
  {
    name: 'RestartApplication(c, true) → POST /v2/apps/c/restart?force=true with `{}` → 200 {deploymentId, version}',
    source: MARATHON.apps,
    request: (p) => goCall(p.base, 'POST', '/v2/apps/c/restart?force=true', '{}'),
    check: answersDeployment,
  },
  {
    name: 'Applications(embed=apps.tasks&embed=apps.deployments&embed=apps.readiness), Traefik v1\'s poll → tasks, counts, deployments, readinessCheckResults',
    source: MARATHON.apps,
    request: (p) => goCall(p.base, 'GET', '/v2/apps?embed=apps.tasks&embed=apps.deployments&embed=apps.readiness'),
    check: (t, res) => {
      t.equal(res.status, 200);
      const [a] = res.json.apps;
      t.equal(a.tasks.length, 2);
      t.equal(a.tasksRunning, 2);
      t.same(a.deployments, []);
      t.same(a.readinessCheckResults, []);
      for (const task of a.tasks) t.match(task, { id: String, appId: '/c', host: String, ports: [Number], servicePorts: [], state: 'TASK_RUNNING', ipAddresses: Array, healthCheckResults: [] });
    },
  },
  {
    name: 'ApplicationVersions → GET /v2/apps/c/versions {versions}; ApplicationByVersion → GET /v2/apps/c/versions/<v>, the app unwrapped',
    source: MARATHON.appVersions,
    request: async (p) => {
      const versions = (await goCall(p.base, 'GET', '/v2/apps/c/versions')).json.versions as string[];
      return goCall(p.base, 'GET', `/v2/apps/c/versions/${versions[0]}`);
    },
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.id, '/c');
    },
  },
  {
    name: 'AllTasks(&AllTasksOpts{Status: "running"}) → GET /v2/tasks?status=running → both tasks, with the app\'s servicePorts',
    source: MARATHON.tasks,
    request: (p) => goCall(p.base, 'GET', '/v2/tasks?status=running'),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 2);
      t.match(res.json.tasks[0].servicePorts, [Number]);
    },
  },
  {
    name: 'KillTask(<1.11 task id>, scale) → DELETE /v2/apps/c.instance-<uuid>./app/tasks/<id>?scale=true: the library cuts the id at its last `.` → 404, as Marathon (ErrCodeNotFound)',
    source: MARATHON.appTasks,
    request: async (p) => {
      const id = (await tasksOf(p))[0].id;
      const appPart = id.slice(0, id.lastIndexOf('.')).replaceAll('_', '/');
      return goCall(p.base, 'DELETE', `/v2/apps/${appPart}/tasks/${id}?scale=true`);
    },
    check: (t, res) => {
      t.equal(res.status, 404);
      t.match(res.json.message, /does not exist/);
    },
  },
  ...['scale=true', 'wipe=true', 'force=true'].map((q): Case => ({
    name: `KillTasks([id], {${q.split('=')[0]}}) → POST /v2/tasks/delete?${q} {"ids": [id]} → 200`,
    source: MARATHON.tasks,
    request: async (p) => goCall(p.base, 'POST', `/v2/tasks/delete?${q}`, JSON.stringify({ ids: [(await tasksOf(p))[0].id] })),
    check: (t, res) => {
      t.equal(res.status, 200, res.text);
      t.ok(res.json !== undefined, 'a JSON body (the library passes no result)');
    },
  })),
  {
    name: 'KillApplicationTasks(c, {Scale}) → DELETE /v2/apps/c/tasks?scale=true → 200 {version, deploymentId} (decoded into Tasks: no tasks, no error)',
    source: MARATHON.appTasks,
    request: (p) => goCall(p.base, 'DELETE', '/v2/apps/c/tasks?scale=true'),
    check: answersDeployment,
  },
  {
    name: 'KillApplicationTasks(c, {Host}) → DELETE /v2/apps/c/tasks?host=<host> → 200 {tasks}',
    source: MARATHON.appTasks,
    request: async (p) => goCall(p.base, 'DELETE', `/v2/apps/c/tasks?host=${(await goCall(p.base, 'GET', '/v2/apps/c/tasks')).json.tasks[0].host}`),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 2);
    },
  },
  {
    name: 'Groups() → GET /v2/groups with the body `""` → 200, the root group',
    source: MARATHON.groups,
    request: (p) => goCall(p.base, 'GET', '/v2/groups', '""'),
    check: (t, res) => {
      t.equal(res.status, 200, res.text);
      t.equal(res.json.id, '/');
      t.equal(res.json.apps[0].id, '/c');
    },
  },
  {
    name: 'HasGroup(unknown) → GET /v2/groups/x with the body `""` → 404 (the library answers false)',
    source: MARATHON.groups,
    request: (p) => goCall(p.base, 'GET', '/v2/groups/x', '""'),
    check: (t, res) => {
      t.equal(res.status, 404);
      t.match(res.json.message, /does not exist/);
    },
  },
  {
    name: 'CreateGroup of an existing id → POST /v2/groups {id, apps: [], dependencies: [], groups: []} → 409 without `deployments` (ErrCodeDuplicateID)',
    source: MARATHON.groups,
    request: async (p) => {
      const body = '{"id":"/g","apps":[],"dependencies":[],"groups":[]}';
      const first = await goCall(p.base, 'POST', '/v2/groups', body);
      if (first.status !== 201) return first;
      return goCall(p.base, 'POST', '/v2/groups', body);
    },
    check: (t, res) => {
      t.equal(res.status, 409, res.text);
      t.notOk('deployments' in res.json);
    },
  },
  {
    name: 'an app change while a deployment runs → 409 with `deployments: [{id}]` (ErrCodeAppLocked)',
    source: MARATHON.exceptionMapper,
    request: async (p) => {
      await goCall(p.base, 'PUT', '/v2/apps/c', '{"id":"/c","instances":5,"ports":null,"dependencies":null}');
      return goCall(p.base, 'PUT', '/v2/apps/c', '{"id":"/c","instances":6,"ports":null,"dependencies":null}');
    },
    check: (t, res) => {
      t.equal(res.status, 409, res.text);
      t.match(res.json.deployments, [{ id: UUID }]);
    },
  },
  {
    name: 'DeleteDeployment(id, true) → DELETE /v2/deployments/<id>?force=true → 202; DeleteDeployment(id, false) → 200 {deploymentId, version}',
    source: MARATHON.deployments,
    request: async (p) => {
      const scale = (n: number): Promise<Res> => goCall(p.base, 'PUT', `/v2/apps/c?force=true`, `{"id":"/c","instances":${n},"ports":null,"dependencies":null}`);
      const first = (await scale(5)).json.deploymentId as string;
      const forced = await goCall(p.base, 'DELETE', `/v2/deployments/${first}?force=true`);
      const second = (await scale(6)).json.deploymentId as string;
      const rollback = await goCall(p.base, 'DELETE', `/v2/deployments/${second}`);
      return { ...forced, json: { rollback: rollback.json, rollbackStatus: rollback.status } };
    },
    check: (t, res) => {
      t.equal(res.status, 202);
      t.equal(res.json.rollbackStatus, 200);
      t.match(res.json.rollback, { deploymentId: UUID, version: TIMESTAMP });
    },
  },
  {
    name: 'Queue() → GET /v2/queue; DeleteQueueDelay(q) → DELETE /v2/queue/q/delay → 204 (an app waiting for offers)',
    source: MARATHON.queue,
    request: async (p) => {
      await goCall(p.base, 'POST', '/v2/apps', '{"id":"/q","cmd":"sleep 1000","cpus":0.01,"instances":1,"mem":16,"ports":null,"dependencies":null}');
      const queue = await goCall(p.base, 'GET', '/v2/queue');
      const res = await goCall(p.base, 'DELETE', '/v2/queue/q/delay');
      return { ...res, json: queue.json };
    },
    check: (t, res) => {
      t.equal(res.status, 204);
      t.match(res.json.queue, [{ count: 1, delay: { overdue: Boolean, timeLeftSeconds: Number }, app: { id: '/q' }, role: '*', since: TIMESTAMP, processedOffersSummary: Object }]);
    },
  },
  {
    name: 'SupportsPods() → HEAD /v2/pods → 2xx',
    source: MARATHON.pods,
    request: (p) => goCall(p.base, 'HEAD', '/v2/pods'),
    check: (t, res) => t.ok(res.status >= 200 && res.status < 300, `${res.status}`),
  },
  {
    name: 'Subscriptions() → GET /v2/eventSubscriptions → 404: HTTP callbacks are gone from Marathon 1.11',
    source: MARATHON.restResource,
    request: (p) => goCall(p.base, 'GET', '/v2/eventSubscriptions'),
    check: (t, res) => t.equal(res.status, 404),
  },
  {
    name: 'Ping() → GET /ping → 200; Info() → GET /v2/info: each field go-marathon\'s Info struct declares has its JSON type or is null',
    source: MARATHON.info,
    request: async (p) => {
      const ping = await goCall(p.base, 'GET', '/ping');
      const info = await goCall(p.base, 'GET', '/v2/info');
      return { ...info, json: { ...info.json, pingStatus: ping.status } };
    },
    check: (t, res) => {
      t.equal(res.json.pingStatus, 200);
      t.equal(res.status, 200);
      t.match(res.json, { name: 'marathon', leader: String, frameworkId: String, http_config: { http_port: Number } });
      const mc: Record<string, Kind> = {
        checkpoint: 'boolean', executor: 'string', failover_timeout: 'number', framework_name: 'string', ha: 'boolean', hostname: 'string',
        leader_proxy_connection_timeout_ms: 'number', leader_proxy_read_timeout_ms: 'number', local_port_max: 'number', local_port_min: 'number',
        master: 'string', mesos_leader_ui_url: 'string', webui_url: 'string', mesos_role: 'string', mesos_user: 'string',
        reconciliation_initial_delay: 'number', reconciliation_interval: 'number', task_launch_timeout: 'number', task_reservation_timeout: 'number',
      };
      const zk: Record<string, Kind> = { zk: 'string', zk_future_timeout: 'object', zk_hosts: 'string', zk_path: 'string', zk_state: 'string', zk_timeout: 'number' };
      for (const [k, kind] of Object.entries(mc)) t.ok(fits(res.json.marathon_config[k], kind), `marathon_config.${k}`);
      for (const [k, kind] of Object.entries(zk)) t.ok(fits(res.json.zookeeper_config[k], kind), `zookeeper_config.${k}`);
      t.ok(fits(res.json.event_subscriber, 'object'));
    },
  },
  {
    name: 'Leader() → GET /v2/leader {leader}; AbdicateLeader() → DELETE /v2/leader → 200 {message}',
    source: MARATHON.leader,
    request: async (p) => {
      const leader = await goCall(p.base, 'GET', '/v2/leader');
      const res = await goCall(p.base, 'DELETE', '/v2/leader');
      return { ...res, json: { ...res.json, leader: leader.json.leader } };
    },
    check: (t, res) => {
      t.equal(res.status, 200, res.text);
      t.equal(res.json.message, 'Leadership abdicated');
      t.match(res.json.leader, /^[^:]+:\d+$/);
    },
  },
  {
    name: 'DeleteApplication(c, false) → DELETE /v2/apps/c → 200 {deploymentId, version}',
    source: MARATHON.apps,
    request: (p) => goCall(p.base, 'DELETE', '/v2/apps/c'),
    check: answersDeployment,
  },
];

for (const c of CASES) {
  t.test(behaviour(`go-marathon: ${c.name}`, c.source), async (t) => {
    const p = await pacer(t);
    await runningApp(t, p, '/c', { instances: 2 });
    c.check(t, await c.request(p));
  });
}

t.test(behaviour('go-marathon: pods — CreatePod, PodStatus, DeletePodInstance (instanceId a string, as Marathon 1.11 writes it: the library cannot decode it), DeletePod (202, empty body, the id in Marathon-Deployment-Id)', MARATHON.pods), async (t) => {
  const p = await pacer(t);
  const pod = '{"id":"/gompod","labels":{"owner":"gom"},"containers":[{"name":"c1","exec":{"command":{"shell":"sleep 1000"}},"resources":{"cpus":0.01,"mem":16},"lifecycle":{},"environment":{"CE":"x"}}],"scaling":{"kind":"fixed","instances":2},"environment":{"PE":"1"}}';
  const created = await goCall(p.base, 'POST', '/v2/pods', pod);
  t.equal(created.status, 201, created.text);
  t.same(created.json.environment, { PE: '1' });
  p.runAll();
  const status = await goCall(p.base, 'GET', '/v2/pods/gompod::status');
  t.equal(status.json.status, 'STABLE');
  t.equal(status.json.instances.length, 2);
  const versions = await goCall(p.base, 'GET', '/v2/pods/gompod::versions');
  t.match(versions.json, [TIMESTAMP]);
  const killed = await goCall(p.base, 'DELETE', `/v2/pods/gompod::instances/${status.json.instances[0].id}`);
  t.equal(killed.status, 200);
  t.equal(killed.json.instanceId, status.json.instances[0].id, 'a string (raml/InstanceConversion.scala), not {"idString": …}');
  const many = await goCall(p.base, 'DELETE', '/v2/pods/gompod::instances', JSON.stringify([status.json.instances[1].id]));
  t.equal(many.status, 200);
  t.equal(many.json[0].instanceId, status.json.instances[1].id);
  const deleted = await goCall(p.base, 'DELETE', '/v2/pods/gompod?force=true');
  t.equal(deleted.status, 202);
  t.equal(deleted.text, '', 'no body: the library takes the deployment id from the header');
  t.match(deleted.headers.get('marathon-deployment-id'), UUID);
});

t.test(behaviour('go-marathon: AddEventsListener over SSE — its request gets the stream, and every event of the types it knows decodes into its structs (events.go)', MARATHON.eventFormats), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, '/v2/events', {
    Accept: 'text/event-stream', 'Cache-Control': 'no-cache', 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip', 'User-Agent': 'Go-http-client/1.1',
  });
  t.teardown(() => client.close());
  t.equal(client.statusCode, 200);
  t.equal(client.headers['content-type'], 'text/event-stream;charset=UTF-8');
  t.notOk(client.headers['content-encoding'], 'not compressed');
  await waitUntil(() => client.parsed().events.length > 0, 'the attached event', 60_000);
  const other = await RawSseClient.open(p.base, '/v2/events');
  other.close();
  await runningApp(t, p, '/c', { instances: 2 });
  t.equal((await goCall(p.base, 'POST', '/v2/apps', JSON.stringify({ ...GO_APP, id: '/h', instances: 0, readinessChecks: undefined }))).status, 201);
  t.equal((await goCall(p.base, 'PUT', '/v2/apps/c', '{"id":"/c","instances":3,"ports":null,"dependencies":null}')).status, 200);
  p.runAll();
  t.equal((await goCall(p.base, 'POST', '/v2/apps', JSON.stringify({ ...GO_APP, id: '/stuck', constraints: [['hostname', 'LIKE', 'nowhere']], readinessChecks: undefined }))).status, 201);
  const [d] = (await goCall(p.base, 'GET', '/v2/deployments')).json;
  t.equal((await goCall(p.base, 'DELETE', `/v2/deployments/${d.id}`)).status, 200);
  t.equal((await goCall(p.base, 'DELETE', '/v2/apps/c')).status, 200);
  t.equal((await goCall(p.base, 'DELETE', '/v2/apps/h')).status, 200);
  p.runAll();
  const wanted = ['event_stream_attached', 'event_stream_detached', 'api_post_event', 'status_update_event', 'add_health_check_event', 'remove_health_check_event',
    'group_change_success', 'deployment_info', 'deployment_step_success', 'deployment_success', 'deployment_failed', 'app_terminated_event'];
  await waitUntil(() => wanted.every((w) => client.parsed().events.some((e) => e.event === w)), `events ${wanted.join(', ')}`, 60_000);
  for (const e of client.parsed().events) {
    t.equal(e.data.eventType, e.event);
    if (EVENT_FIELDS[e.event] !== undefined) t.same(goDecodeErrors(e.event, e.data), [], `${e.event} decodes`);
  }
});

t.test('go-marathon: the decode check above rejects what Go\'s json.Decode would', async (t) => {
  const rows: [string, Record<string, unknown>, number][] = [
    ['status_update_event', { eventType: 'status_update_event', taskId: 't', ports: [31000], ipAddresses: [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }] }, 0],
    ['status_update_event', { eventType: 'status_update_event', taskId: 't', ports: ['31000'] }, 1],
    ['health_status_changed_event', { eventType: 'health_status_changed_event', alive: 'true' }, 1],
    ['deployment_info', { eventType: 'deployment_info', currentStep: { actions: [{ action: 'ScaleApplication', app: 1 }] }, plan: { id: 'x', steps: [] } }, 1],
    ['add_health_check_event', { eventType: 'add_health_check_event', healthCheck: { portIndex: '0' } }, 1],
  ];
  for (const [type, data, errors] of rows) t.equal(goDecodeErrors(type, data).length, errors, JSON.stringify(data));
});
