import t from 'tap';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { makeOffer } from '../../../builders/cluster-builders';
import { appLaunchOperation, placedAppLaunch } from '../../../../src/scheduler/launcher/task-launch';
import { appTaskId } from '../../../../src/scheduler/kernel/ids';
import { appLaunchOn, podLaunchOn } from '../../../builders/launch-builders';
import { makeApp, makeEndpoint, makeHealthCheck, makePod, makePortMapping } from '../../../builders/run-spec-builders';

/**
 * The core's launcher resolves each task for the drivers (src/scheduler/launcher/task-launch.ts):
 * what a driver gets is complete, so no driver reads the run spec (issue 12, R1).
 */

const offer: Offer = makeOffer({ agent: { agentId: 'a1', hostname: 'h1' } });
const BRIDGE = [{ mode: 'container/bridge' as const, labels: {} }];

function appTask(app: Parameters<typeof appLaunchOn>[1], hostPorts: number[]) {
  return appLaunchOn(offer, app, { taskId: 't1', instanceId: 'i1', hostPorts, allocation: [] }).task;
}

t.test('an app under host networking: named ports, their variables and discovery entries', async (t) => {
  const app = makeApp({
    id: '/web', hostPorts: [0, 0],
    portDefinitions: [{ port: 10_000, protocol: 'udp,tcp', name: 'dns', labels: { VIP_0: '/dns:53' } }, { port: 10_001, protocol: 'tcp', labels: {} }],
    user: 'nobody', labels: { tier: 'front' }, fetch: [{ uri: 'http://x/a.tgz', extract: true, executable: false, cache: false }],
  });
  const task = appTask(app, [31_000, 31_001]);
  t.match(task.env, { HOST: 'h1', PORT0: '31000', PORT1: '31001', PORTS: '31000,31001', PORT_DNS: '31000', MARATHON_APP_LABEL_TIER: 'front', MARATHON_APP_LABELS: 'tier' });
  t.same(task.ports, [
    { number: 31_000, name: 'dns', protocols: ['udp', 'tcp'], labels: { VIP_0: '/dns:53' } },
    { number: 31_001, protocols: ['tcp'], labels: {} },
  ]);
  t.same(task.networking, { mode: 'host', networks: [], portMappings: [] });
  t.equal(task.user, 'nobody');
  t.same(task.fetch, app.fetch);
  t.same(task.labels, { tier: 'front' });
});

t.test('an app under bridge networking: mappings bound to the host ports in order; a mapping without one is found on its container port', async (t) => {
  const app = makeApp({
    networks: BRIDGE,
    container: {
      type: 'DOCKER', docker: { image: 'nginx', privileged: true, parameters: [{ key: 'label', value: 'a=b' }] },
      portMappings: [makePortMapping({ containerPort: 80, hostPort: 0, name: 'http' }), makePortMapping({ containerPort: 9000, name: 'admin' }), makePortMapping({ containerPort: 0, hostPort: 0, protocol: 'udp' })],
    },
    healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP', portIndex: 0 })],
  });
  const task = appTask(app, [31_000, 31_001]);
  t.same(task.networking?.portMappings, [
    { hostPort: 31_000, containerPort: 80, protocol: 'tcp' },
    { hostPort: 31_001, containerPort: 31_001, protocol: 'udp' },
  ], 'container port 0 means the host port');
  t.same(task.ports.map((p) => [p.number, p.name]), [[31_000, 'http'], [9000, 'admin'], [31_001, undefined]]);
  t.match(task.env, { PORT_HTTP: '31000' });
  t.same(task.image, { kind: 'DOCKER', id: 'nginx', forcePull: false });
  t.same(task.docker, { privileged: true, parameters: [{ key: 'label', value: 'a=b' }] });
  t.match(task.healthCheck, { port: 31_000, containerPort: 80 }, 'the agent-run check on the mapping its portIndex names');
});

t.test('commands: cmd through a shell, args as an argv, neither for an image\'s entrypoint', async (t) => {
  t.same(appTask(makeApp({ cmd: 'echo hi' }), []).command, { shell: 'echo hi' });
  t.same(appTask(makeApp({ cmd: undefined, args: ['/bin/echo', 'a'] }), []).command, { argv: ['/bin/echo', 'a'] });
  t.equal(appTask(makeApp({ cmd: undefined }), []).command, undefined);
});

t.test('a pod: one environment per container (pod variables under the container\'s), every endpoint named, secrets as references', async (t) => {
  const pod = makePod({
    id: '/shop', env: { SHARED: 'pod', MODE: 'pod' }, envSecrets: { TOKEN: 'shared' }, user: 'app',
    secrets: { shared: { source: '/vault/shared' }, own: { source: '/vault/own' } },
    networks: [{ mode: 'container', name: 'overlay', labels: { zone: 'a' } }], networkMode: 'container',
    containers: [
      { name: 'web', endpoints: [makeEndpoint({ name: 'http', hostPort: 0, containerPort: 8080, protocol: ['http'] })], env: { MODE: 'web' }, envSecrets: { TOKEN: 'own' }, user: 'www' },
      { name: 'side', endpoints: [makeEndpoint({ name: 'metrics', containerPort: 9100 })], env: { TOKEN: 'plain' } },
    ],
  });
  const op = podLaunchOn(offer, pod, {
    instanceId: 'i1', executorId: 'e1', allocation: [], taskIdOf: (name) => `i1.${name}`, hostPortsOf: (name) => (name === 'web' ? [31_000] : []),
  });
  const [web, side] = op.tasks;
  t.match(web.env, { SHARED: 'pod', MODE: 'web', ENDPOINT_HTTP: '31000', ENDPOINT_METRICS: '9100', MARATHON_CONTAINER_ID: 'web' });
  t.match(side.env, { SHARED: 'pod', MODE: 'pod', TOKEN: 'plain', ENDPOINT_HTTP: '31000' });
  t.same(web.secretEnv, [{ variable: 'TOKEN', secret: 'own', source: '/vault/own' }], 'the container\'s secret wins');
  t.same(side.secretEnv, [], 'a plain variable of the container wins over the pod\'s secret');
  t.same([web.user, side.user], ['www', 'app']);
  t.same(op.networking, { mode: 'container', networks: [{ name: 'overlay', labels: { zone: 'a' } }], portMappings: [{ hostPort: 31_000, containerPort: 8080, protocol: 'tcp' }] });
  t.same(web.ports, [{ number: 31_000, name: 'http', protocols: ['http'], labels: {} }]);
});

t.test('one app launched many times: what depends on the task is the task\'s, the rest is resolved once and stays the same', async (t) => {
  const app = makeApp({
    id: '/many', hostPorts: [0], env: { PORT0: 'mine', EXTRA: 'x' }, labels: { tier: 'back' },
    portDefinitions: [{ port: 10_000, protocol: 'tcp', name: 'web', labels: {} }],
  });
  const first = appTask(app, [31_000]);
  const second = appTask(app, [31_005]);
  const none = appTask(app, []);
  t.same(second.ports.map((p) => p.number), [31_005]);
  t.equal(second.env.PORT_WEB, '31005');
  t.equal(second.env.PORT, '31005');
  t.equal(first.env.PORT, '31000');
  t.same(none.ports, [], 'no host ports: no discovery ports');
  t.notOk('PORT' in none.env);
  // The app's own env wins over Marathon's variables and keeps the position of the variable it overrides.
  t.same(Object.entries(second.env), [
    ['HOST', 'h1'], ['PORT0', 'mine'], ['PORT', '31005'], ['PORTS', '31005'], ['PORT_10000', '31005'], ['PORT_WEB', '31005'],
    ['MARATHON_APP_ID', '/many'], ['MARATHON_APP_VERSION', app.version], ['MARATHON_APP_LABELS', 'tier'], ['MARATHON_APP_LABEL_TIER', 'back'],
    ['MARATHON_APP_RESOURCE_CPUS', second.env.MARATHON_APP_RESOURCE_CPUS], ['MARATHON_APP_RESOURCE_MEM', second.env.MARATHON_APP_RESOURCE_MEM],
    ['MARATHON_APP_RESOURCE_DISK', second.env.MARATHON_APP_RESOURCE_DISK], ['MARATHON_APP_RESOURCE_GPUS', second.env.MARATHON_APP_RESOURCE_GPUS],
    ['EXTRA', 'x'],
  ]);
  t.same(Object.keys(second), Object.keys(first), 'every launch of the app has the same fields in the same order');
  t.same(first.secretEnv, second.secretEnv);
  t.same(first.volumes, second.volumes);
});

t.test('a task without host ports: HOST is the agent\'s unless the app\'s env sets it, first either way', async (t) => {
  const plain = appTask(makeApp({ id: '/plain', env: { A: '1' } }), []);
  t.same(Object.keys(plain.env).slice(0, 1), ['HOST']);
  t.equal(plain.env.HOST, 'h1');
  t.equal(plain.env.A, '1');
  const own = appTask(makeApp({ id: '/own', env: { HOST: 'mine' } }), []);
  t.equal(own.env.HOST, 'mine');
  t.same(Object.keys(own.env).filter((k) => k === 'HOST'), ['HOST']);
  t.equal(Object.keys(own.env)[0], 'HOST');
});

t.test('an app task\'s environment: exact keys in order, the app\'s own variables over Marathon\'s (also __proto__)', async (t) => {
  const defs = [{ port: 10_000, protocol: 'tcp', name: 'http', labels: {} }, { port: 10_001, protocol: 'tcp', labels: {} }];
  const resourceVars = { MARATHON_APP_RESOURCE_CPUS: '0.1', MARATHON_APP_RESOURCE_MEM: '32.0', MARATHON_APP_RESOURCE_DISK: '0.0', MARATHON_APP_RESOURCE_GPUS: '0' };
  const table: [string, Record<string, string>, number[], [string, string][]][] = [
    ['two ports, one named', {}, [31_000, 31_001], [
      ['HOST', 'h1'], ['PORT0', '31000'], ['PORT1', '31001'], ['PORT', '31000'], ['PORTS', '31000,31001'], ['PORT_10000', '31000'], ['PORT_10001', '31001'], ['PORT_HTTP', '31000'],
      ['MARATHON_APP_ID', '/web'], ['MARATHON_APP_VERSION', '2026-01-01T00:00:00.000Z'], ['MARATHON_APP_LABELS', ''],
    ]],
    ['the app overrides HOST and PORT0 (they keep their place) and adds its own last', { PORT0: 'mine', HOST: 'me', EXTRA: 'x' }, [31_000, 31_001], [
      ['HOST', 'me'], ['PORT0', 'mine'], ['PORT1', '31001'], ['PORT', '31000'], ['PORTS', '31000,31001'], ['PORT_10000', '31000'], ['PORT_10001', '31001'], ['PORT_HTTP', '31000'],
      ['MARATHON_APP_ID', '/web'], ['MARATHON_APP_VERSION', '2026-01-01T00:00:00.000Z'], ['MARATHON_APP_LABELS', ''], ['EXTRA', 'x'],
    ]],
    ['a variable named __proto__ is a variable', JSON.parse('{"__proto__": "p"}') as Record<string, string>, [31_000, 31_001], [
      ['HOST', 'h1'], ['PORT0', '31000'], ['PORT1', '31001'], ['PORT', '31000'], ['PORTS', '31000,31001'], ['PORT_10000', '31000'], ['PORT_10001', '31001'], ['PORT_HTTP', '31000'],
      ['MARATHON_APP_ID', '/web'], ['MARATHON_APP_VERSION', '2026-01-01T00:00:00.000Z'], ['MARATHON_APP_LABELS', ''], ['__proto__', 'p'],
    ]],
  ];
  for (const [name, env, hostPorts, expected] of table) {
    const app = makeApp({ id: '/web', version: '2026-01-01T00:00:00.000Z', hostPorts: [0, 0], portDefinitions: defs, labels: {}, env });
    const withResources: [string, string][] = [];
    for (const [k, v] of expected) {
      if (k === 'MARATHON_APP_LABELS') withResources.push([k, v], ...Object.entries(resourceVars).filter(([r]) => !(r in env)));
      else withResources.push([k, v]);
    }
    const got = appTask(app, hostPorts).env;
    t.same(Object.entries(got), withResources, name);
    t.equal(Object.getPrototypeOf(got), Object.prototype, `${name}: a plain object`);
  }
});

t.test('an app LAUNCH resolves its task on the first read, once, from the placement as it was; its JSON is a plain operation\'s', async (t) => {
  const app = makeApp({ id: '/web', hostPorts: [0], role: 'prod' });
  const op = appLaunchOn(offer, app, { taskId: 't1', instanceId: 'i1', hostPorts: [31_000], allocation: [] });
  t.same(Object.keys(op), ['kind', 'allocation'], 'own fields: the kind and the allocation only (the placement is private)');
  const task = op.task;
  t.equal(op.task, task, 'every read returns the same object');
  t.match(task, { taskId: 't1', instanceId: 'i1', agentId: 'a1', hostname: 'h1', role: 'prod', hostPorts: [31_000] });
  t.match(task.env, { HOST: 'h1', PORT0: '31000', MARATHON_APP_ID: '/web' });
  const json: unknown = JSON.parse(JSON.stringify(op));
  t.same(json, JSON.parse(JSON.stringify({ kind: 'launch', task, allocation: [] })), 'JSON: { kind, task, allocation }, the task resolved');
  t.same(Object.keys(json as object), ['kind', 'task', 'allocation']);
});

t.test('a LAUNCH read after its instance changed still has the placement\'s role and agent', async (t) => {
  const app = makeApp({ id: '/web', role: 'prod' });
  const inst = { instanceId: 'i2', role: 'prod' } as { instanceId: string; role: string };
  const task = { taskId: 't2', condition: 'Provisioned', hostPorts: [], resources: app.resources, launchedAtMs: 0 } as const;
  const op = appLaunchOperation(app, inst as never, task, offer, []);
  inst.role = 'other';
  if (op.kind !== 'launch') throw new Error('an app launch');
  t.equal(op.task.role, 'prod', 'the role when it was placed');
  t.equal(op.task.agentId, 'a1');
});

t.test('a placed app\'s LAUNCH names its task by the instance and incarnation, and resolves as the LAUNCH of that task', async (t) => {
  const app = makeApp({ id: '/web', hostPorts: [0], role: 'prod' });
  const inst = { instanceId: 'web.instance-9', role: 'prod' } as { instanceId: string; role: string };
  const cases: { incarnation: number; hostPorts: number[] }[] = [{ incarnation: 1, hostPorts: [31_000] }, { incarnation: 7, hostPorts: [31_009] }];
  for (const c of cases) {
    const placed = placedAppLaunch(app, inst as never, c.incarnation, c.hostPorts, offer, []);
    const taskId = appTaskId(inst.instanceId, c.incarnation);
    const asTask = appLaunchOperation(app, inst as never, { taskId, containerName: undefined, hostPorts: c.hostPorts, resources: app.resources }, offer, []);
    if (placed.kind !== 'launch' || asTask.kind !== 'launch') throw new Error('app launches');
    t.equal(placed.task.taskId, taskId, `incarnation ${c.incarnation}: ${taskId}`);
    t.same(placed.task, asTask.task, `incarnation ${c.incarnation}: the same resolved task`);
    t.equal(placed.task, placed.task, 'resolved once');
  }
});

t.test('port variables: Marathon\'s EnvironmentHelper.portsEnv under host, bridge and container networking', async (t) => {
  // Marathon 1.11's EnvironmentHelper.portsEnv with TaskBuilder's declared ports (the mappings'
  // container ports, else the port definitions' ports): PORT<i> per declared port, PORT_<n> per
  // declared port n (a declared 0: PORT_<its value>), PORT_<NAME> only for a port with a host port,
  // PORT/PORTS over host ports and picked ports.
  const OVERLAY = [{ mode: 'container' as const, name: 'dcos', labels: {} }];
  const PICKED = '<picked>';
  type Mapping = Parameters<typeof makePortMapping>[0];
  type Row = [string, Parameters<typeof makeApp>[0], number[], Record<string, string | undefined>];
  const onOverlay = (mappings: Mapping[]): Parameters<typeof makeApp>[0] =>
    ({ id: '/cn', networks: OVERLAY, portDefinitions: [], container: { type: 'MESOS', portMappings: mappings.map((m) => makePortMapping(m)) } });
  const table: Row[] = [
    ['host: PORT_<service port> of each port definition, PORT_<NAME> of the named one',
      { portDefinitions: [{ port: 10_000, protocol: 'tcp', name: 'http', labels: {} }, { port: 10_001, protocol: 'tcp', labels: {} }] }, [31_000, 31_001],
      { PORT0: '31000', PORT1: '31001', PORT_10000: '31000', PORT_10001: '31001', PORT_HTTP: '31000', PORT: '31000', PORTS: '31000,31001' }],
    ['host: a port definition of port 0 (none assigned): PORT_<host port>',
      { portDefinitions: [{ port: 0, protocol: 'tcp', labels: {} }] }, [31_005],
      { PORT0: '31005', PORT_31005: '31005', PORT_0: undefined, PORT: '31005', PORTS: '31005' }],
    ['bridge: PORT<i> follows the mappings, one without a host port is its container port, in neither PORT nor PORTS',
      { networks: BRIDGE, portDefinitions: [], container: { type: 'DOCKER', portMappings: [makePortMapping({ containerPort: 80, hostPort: 0, name: 'http' }), makePortMapping({ containerPort: 9000, name: 'admin' }), makePortMapping({ containerPort: 0, hostPort: 0 })] } }, [31_000, 31_001],
      { PORT0: '31000', PORT1: '9000', PORT2: '31001', PORT_80: '31000', PORT_9000: '9000', PORT_31001: '31001', PORT_HTTP: '31000', PORT_ADMIN: undefined, PORT: '31000', PORTS: '31000,31001' }],
    ['container network, a fixed container port without a host port: PORT0, PORT_<port>; no PORT_<NAME>, no PORT, PORTS empty',
      onOverlay([{ containerPort: 8080, name: 'http' }]), [],
      { PORT0: '8080', PORT_8080: '8080', PORT_HTTP: undefined, PORT: undefined, PORTS: '' }],
    ['container network, container port 0 without a host port (the default mapping): a picked port',
      onOverlay([{ containerPort: 0, name: 'default' }]), [],
      { PORT0: PICKED, PORT: PICKED, PORTS: PICKED, PORT_DEFAULT: undefined, [`PORT_${PICKED}`]: PICKED, PORT_0: undefined }],
    ['container network, a mapping with a host port among ones without: indices follow the mappings, PORT the host port',
      onOverlay([{ containerPort: 8080, name: 'http' }, { containerPort: 9000, hostPort: 0, name: 'adm' }, { containerPort: 0, hostPort: 0 }]), [31_000, 31_001],
      { PORT0: '8080', PORT1: '31000', PORT2: '31001', PORT: '31000', PORTS: '31000,31001', PORT_8080: '8080', PORT_9000: '31000', PORT_31001: '31001', PORT_HTTP: undefined, PORT_ADM: '31000' }],
    ['no ports: no port variables at all',
      { portDefinitions: [] }, [],
      { PORT0: undefined, PORT: undefined, PORTS: undefined }],
  ];
  for (const [name, spec, hostPorts, expected] of table) {
    const app = makeApp(spec);
    const env = appTask(app, hostPorts).env;
    const picked = env.PORT0;
    for (const [key, value] of Object.entries(expected)) {
      const k = key.replace(PICKED, picked);
      if (value === undefined) t.notOk(k in env, `${name}: no ${k}`);
      else t.equal(env[k], value === PICKED ? picked : value, `${name}: ${k}`);
    }
    if (expected.PORT0 === PICKED) {
      const port = Number(picked);
      t.ok(Number.isInteger(port) && port >= 1025 && port <= 65_535, `${name}: picked ${picked} in 1025-65535`);
      t.equal(appTask(app, hostPorts).env.PORT0, picked, `${name}: the same port whenever the task is resolved`);
    }
    t.equal(env.HOST, 'h1', `${name}: HOST`);
  }
  const many = makeApp(onOverlay([{ containerPort: 0 }, { containerPort: 0 }]));
  const env = appTask(many, []).env;
  t.not(env.PORT0, env.PORT1, 'two picked ports differ');
  t.equal(env.PORTS, `${env.PORT0},${env.PORT1}`);
  const own = makeApp({ ...onOverlay([{ containerPort: 80 }]), env: { PORT0: 'mine' } });
  t.equal(appTask(own, []).env.PORT0, 'mine', 'the app\'s own env still wins');
});
