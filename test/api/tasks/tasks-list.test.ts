import t from 'tap';
import { makeApi } from '../api-fixture';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { makeOffer } from '../../builders/cluster-builders';
import { START_MS } from '../../harness/core-harness';
import { body, launch, launchRunning, type TaskWire } from './tasks-fixture';

t.test('GET /v2/tasks with nothing deployed → {"tasks":[]}', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/v2/tasks' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /application\/json/);
  t.same(body(res), { tasks: [] });
});

t.test('a running app task carries every field of fact 40', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const app = makeApp({ id: '/web', hostPorts: [0], portDefinitions: [{ port: 10001, protocol: 'tcp', name: 'http', labels: {} }] });
  const [launched] = launchRunning(fx, app, makeOffer({ agent: { hostname: 'h1', zone: 'z1', region: 'r1' } }));
  const { tasks } = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' }));
  t.equal(tasks.length, 1);
  const [task] = tasks;
  t.same(task, {
    appId: '/web',
    id: launched.taskId,
    host: 'h1',
    slaveId: 'agent-h1',
    state: 'TASK_RUNNING',
    ports: task.ports,
    ipAddresses: [],
    servicePorts: [10001],
    healthCheckResults: [],
    localVolumes: [],
    role: '*',
    stagedAt: new Date(START_MS).toISOString(),
    startedAt: new Date(START_MS).toISOString(),
    version: app.version,
    region: 'r1',
    zone: 'z1',
  });
  t.equal((task.ports as number[]).length, 1, 'one host port per port definition');
  t.ok((task.ports as number[])[0] >= 31000, 'host port from the offer range');
});

t.test('tasks of pods are not listed (fact 57)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  launchRunning(fx, makePod({ id: '/pod' }));
  launchRunning(fx, makeApp({ id: '/app' }));
  const { tasks } = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' }));
  t.same(tasks.map((x) => x.appId), ['/app']);
});

t.test('task states follow the instance condition', async (t) => {
  const cases: { name: string; drive: (fx: ReturnType<typeof makeApi>, taskId: string) => void; state: string; active: boolean }[] = [
    { name: 'launched, no status yet', drive: () => undefined, state: 'TASK_STAGING', active: true },
    { name: 'staging', drive: (fx, id) => fx.harness.status(id, 'TASK_STAGING'), state: 'TASK_STAGING', active: true },
    { name: 'starting', drive: (fx, id) => fx.harness.status(id, 'TASK_STARTING'), state: 'TASK_STARTING', active: true },
    { name: 'running', drive: (fx, id) => fx.harness.run(id), state: 'TASK_RUNNING', active: true },
    { name: 'unreachable', drive: (fx, id) => { fx.harness.run(id); fx.harness.status(id, 'TASK_UNREACHABLE'); }, state: 'TASK_UNREACHABLE', active: true },
  ];
  for (const c of cases) {
    const fx = makeApi();
    const [launched] = launch(fx, makeApp({ id: '/s', unreachable: { kind: 'disabled' } }));
    c.drive(fx, launched.taskId);
    const { tasks } = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' }));
    t.equal(tasks[0]?.state, c.state, c.name);
    t.equal('stagedAt' in (tasks[0] ?? {}), c.active, `${c.name}: stagedAt only for active tasks`);
    await fx.app.close();
  }
});

t.test('startedAt appears only once the task ran', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [launched] = launch(fx, makeApp({ id: '/s' }));
  fx.harness.status(launched.taskId, 'TASK_STAGING');
  let [task] = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' })).tasks;
  t.notOk('startedAt' in task);
  fx.harness.advance(2500);
  fx.harness.status(launched.taskId, 'TASK_RUNNING');
  [task] = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' })).tasks;
  t.equal(task.startedAt, new Date(START_MS + 2500).toISOString());
  t.equal(task.stagedAt, new Date(START_MS).toISOString());
});

t.test('status filter (fact 57): running / staging, status[] too, unknown values ignored', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [run] = launchRunning(fx, makeApp({ id: '/run' }));
  const [stage] = launch(fx, makeApp({ id: '/stage' }));
  fx.harness.status(stage.taskId, 'TASK_STAGING');
  const [start] = launch(fx, makeApp({ id: '/start' }));
  fx.harness.status(start.taskId, 'TASK_STARTING');
  const cases: [string, string[]][] = [
    ['', [run.taskId, stage.taskId, start.taskId]],
    ['?status=running', [run.taskId]],
    ['?status=RUNNING', [run.taskId]],
    ['?status=staging', [stage.taskId]],
    ['?status[]=staging', [stage.taskId]],
    ['?status=running&status=staging', [run.taskId, stage.taskId]],
    ['?status=running&status[]=staging', [run.taskId, stage.taskId]],
    ['?status=starting', [run.taskId, stage.taskId, start.taskId]],
    ['?status=bogus&status=running', [run.taskId]],
  ];
  for (const [query, expected] of cases) {
    const { tasks } = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: `/v2/tasks${query}` }));
    t.same(tasks.map((x) => x.id).sort(), [...expected].sort(), query === '' ? 'no filter' : query);
  }
});

t.test('Accept: text/plain gives the tab-separated endpoint list', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const web = makeApp({
    id: '/prod/web', instances: 2, hostPorts: [0, 0],
    portDefinitions: [{ port: 10000, protocol: 'tcp', name: 'a', labels: {} }, { port: 10001, protocol: 'tcp', name: 'b', labels: {} }],
  });
  const launched = launchRunning(fx, web, makeOffer({ agent: { hostname: 'h1' } }));
  t.equal(launched.length, 2);
  launch(fx, makeApp({ id: '/plain' }), makeOffer({ agent: { hostname: 'h2' } }));
  const res = await fx.app.inject({ method: 'GET', url: '/v2/tasks', headers: { accept: 'text/plain' } });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/plain/);
  const lines = res.body.split('\n');
  t.equal(lines.pop(), '', 'ends with a newline');
  const hostPorts = fx.harness.instances('/prod/web').map((i) => i.tasks[0].hostPorts);
  t.same(lines, [
    `prod_web\t10000\th1:${hostPorts[0][0]}\th1:${hostPorts[1][0]}\t`,
    `prod_web\t10001\th1:${hostPorts[0][1]}\th1:${hostPorts[1][1]}\t`,
    // Not running yet: the app is listed without endpoints.
    'plain\t \t',
  ]);
});

t.test('Accept negotiation: JSON unless text/plain is preferred', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const cases: [string, RegExp][] = [
    ['*/*', /application\/json/],
    ['application/json', /application\/json/],
    ['text/plain, application/json', /application\/json/],
    ['text/plain;q=1, application/json;q=0.5', /text\/plain/],
    ['text/*', /text\/plain/],
  ];
  for (const [accept, type] of cases) {
    const res = await fx.app.inject({ method: 'GET', url: '/v2/tasks', headers: { accept } });
    t.match(res.headers['content-type'], type, accept);
  }
});

/**
 * Marathon 1.10's EndpointsHelper (the last that wrote the text list): a container-network port
 * mapping without a host port is listed as `<task IP>:<containerPort>` only when
 * `?containerNetworks` names its network (or `*`), never as `<host>:0`; a mapping with a host
 * port is matched with the task's host port of that mapping (the host ports hold only the
 * mappings that have one); an app without service ports lists its hosts tab-separated.
 */
t.test('Accept: text/plain with port mappings and container networks (Marathon 1.10, ?containerNetworks)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const mapping = { protocol: 'tcp', labels: {}, networkNames: [] as string[] };
  const cn = makeApp({
    id: '/cn', networks: [{ mode: 'container', name: 'dcos', labels: {} }],
    container: { portMappings: [{ ...mapping, containerPort: 8080, servicePort: 10010 }, { ...mapping, containerPort: 9090, hostPort: 0, servicePort: 10011 }] },
  });
  const [task] = launch(fx, cn, makeOffer({ agent: { hostname: 'h1' } }));
  fx.harness.status(task.taskId, 'TASK_RUNNING', { ipAddresses: [{ ipAddress: '10.0.0.7', protocol: 'IPv4' }] });
  const [hostPort] = fx.harness.instances('/cn')[0].tasks[0].hostPorts;
  launchRunning(fx, makeApp({ id: '/noports' }), makeOffer({ agent: { hostname: 'h2' } }));
  const text = async (query: string): Promise<string> => (await fx.app.inject({ method: 'GET', url: `/v2/tasks${query}`, headers: { accept: 'text/plain' } })).body;
  const rest = `cn\t10011\th1:${hostPort}\t\nnoports\t \th2\t\n`;
  t.equal(await text(''), `cn\t10010\t\n${rest}`, 'the container endpoint is left out by default (it was h1:0, and 9090\'s host port was listed under 8080)');
  t.equal(await text('?containerNetworks=*'), `cn\t10010\t10.0.0.7:8080\t\n${rest}`, 'every container network');
  t.equal(await text('?containerNetworks=other,dcos'), `cn\t10010\t10.0.0.7:8080\t\n${rest}`, 'its network named');
  t.equal(await text('?containerNetworks=other'), `cn\t10010\t\n${rest}`, 'another network named');
});
