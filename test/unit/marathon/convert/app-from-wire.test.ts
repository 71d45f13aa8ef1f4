import t from 'tap';
import { appFromWire } from '../../../../src/marathon/convert/app-from-wire';
import { gracePeriodMs } from '../../../../src/scheduler/kill/kill-instance';
import { healthCheckPort } from '../../../../src/scheduler/model/health-check-port';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import { appEcho, appErrors, convertApp, CTX, makeAppJson, VERSION } from './fixtures/builders';

const VERSION_INFO = { lastScalingAt: VERSION, lastConfigChangeAt: VERSION };

t.test('a minimal app gets the full Marathon 1.11 definition (facts 18, 20), empty omit-if-empty fields left out', async (t) => {
  const spec = convertApp(makeAppJson());
  t.strictSame(appEcho(spec), {
    id: '/foo',
    cmd: 'sleep 100',
    instances: 1,
    cpus: 1,
    mem: 128,
    disk: 0,
    gpus: 0,
    executor: '',
    backoffSeconds: 1,
    backoffFactor: 1.15,
    maxLaunchDelaySeconds: 300,
    upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
    labels: {},
    version: VERSION,
    versionInfo: VERSION_INFO,
    killSelection: 'YOUNGEST_FIRST',
    unreachableStrategy: { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 },
    requirePorts: false,
    networks: [{ mode: 'host' }],
    portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default' }],
    role: '*',
  });
});

t.test('a minimal app normalizes into the core model', async (t) => {
  const spec = convertApp(makeAppJson());
  t.strictSame(spec, {
    kind: 'app',
    id: '/foo',
    version: VERSION,
    versionInfo: VERSION_INFO,
    instances: 1,
    role: '*',
    acceptedResourceRoles: [],
    constraints: [],
    backoff: { initialMs: 1000, factor: 1.15, maxMs: 300_000 },
    upgrade: { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
    unreachable: { kind: 'enabled', inactiveAfterMs: 0, expungeAfterMs: 0 },
    killSelection: 'YOUNGEST_FIRST',
    labels: {},
    resident: false,
    cmd: 'sleep 100',
    env: {},
    envSecrets: {},
    secrets: {},
    fetch: [],
    executor: '',
    resources: { cpusMilli: 1000, memMilli: 128_000, diskMilli: 0, gpus: 0 },
    networks: [{ mode: 'host', labels: {} }],
    portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default', labels: {} }],
    requirePorts: false,
    hostPorts: [0],
    healthChecks: [],
    dependencies: [],
  });
});

interface DefaultCase {
  readonly name: string;
  readonly over: Record<string, unknown>;
  readonly check: (spec: AppSpec, t: tap.Test) => void;
}

const defaultCases: readonly DefaultCase[] = [
  {
    name: 'given resources are converted to milli-units',
    over: { cpus: 0.25, mem: 64.5, disk: 1024, gpus: 2, instances: 3 },
    check: (s, t) => {
      t.strictSame(s.resources, { cpusMilli: 250, memMilli: 64_500, diskMilli: 1_024_000, gpus: 2 });
      t.equal(s.instances, 3);
      t.match(appEcho(s), { cpus: 0.25, mem: 64.5, disk: 1024, gpus: 2, instances: 3 });
    },
  },
  {
    name: 'backoff seconds become milliseconds',
    over: { backoffSeconds: 2, backoffFactor: 2, maxLaunchDelaySeconds: 60 },
    check: (s, t) => t.strictSame(s.backoff, { initialMs: 2000, factor: 2, maxMs: 60_000 }),
  },
  {
    name: 'killSelection is accepted in any case and echoed upper case',
    over: { killSelection: 'Oldest_First' },
    check: (s, t) => {
      t.equal(s.killSelection, 'OLDEST_FIRST');
      t.equal(appEcho(s).killSelection, 'OLDEST_FIRST');
    },
  },
  {
    name: 'unreachableStrategy "disabled" is kept',
    over: { unreachableStrategy: 'disabled' },
    check: (s, t) => {
      t.strictSame(s.unreachable, { kind: 'disabled' });
      t.equal(appEcho(s).unreachableStrategy, 'disabled');
    },
  },
  {
    name: 'an enabled unreachableStrategy becomes milliseconds',
    over: { unreachableStrategy: { inactiveAfterSeconds: 60, expungeAfterSeconds: 600 } },
    check: (s, t) => t.strictSame(s.unreachable, { kind: 'enabled', inactiveAfterMs: 60_000, expungeAfterMs: 600_000 }),
  },
  {
    name: 'a partial upgradeStrategy (the API refuses it: its schema requires both, apps-create.test.ts) takes the other value from the default in the converter',
    over: { upgradeStrategy: { minimumHealthCapacity: 0.5 } },
    check: (s, t) => {
      t.strictSame(s.upgrade, { minimumHealthCapacity: 0.5, maximumOverCapacity: 1 });
      t.strictSame(appEcho(s).upgradeStrategy, { minimumHealthCapacity: 0.5, maximumOverCapacity: 1 });
    },
  },
  {
    name: 'taskKillGracePeriodSeconds is echoed and converted',
    over: { taskKillGracePeriodSeconds: 10 },
    check: (s, t) => {
      t.equal(s.killGracePeriodMs, 10_000);
      t.equal(appEcho(s).taskKillGracePeriodSeconds, 10);
    },
  },
  {
    name: 'an absent taskKillGracePeriodSeconds stays absent but means 3 s',
    over: {},
    check: (s, t) => {
      t.equal(s.killGracePeriodMs, undefined);
      t.equal(gracePeriodMs(s, undefined), 3000);
      t.notOk('taskKillGracePeriodSeconds' in appEcho(s));
    },
  },
  {
    name: 'labels and env are kept; secret env references are echoed but not plain values',
    over: { labels: { tier: 'web' }, env: { A: '1', lower_case: 'ok', DB: { secret: 'db-pass' } }, secrets: { 'db-pass': { source: '/db/pass' } } },
    check: (s, t) => {
      t.strictSame(s.labels, { tier: 'web' });
      t.strictSame(s.env, { A: '1', lower_case: 'ok' });
      t.strictSame(appEcho(s).env, { A: '1', lower_case: 'ok', DB: { secret: 'db-pass' } });
    },
  },
  {
    name: 'args replace cmd',
    over: { cmd: undefined, args: ['sleep', '100'] },
    check: (s, t) => {
      t.strictSame(s.args, ['sleep', '100']);
      t.notOk('cmd' in s);
      t.notOk('cmd' in appEcho(s));
      t.strictSame(appEcho(s).args, ['sleep', '100']);
    },
  },
  {
    name: 'an empty args list next to cmd is dropped',
    over: { args: [] },
    check: (s, t) => {
      t.notOk('args' in s);
      t.notOk('args' in appEcho(s));
    },
  },
  {
    name: 'a container alone is enough to run',
    over: { cmd: undefined, container: { type: 'DOCKER', docker: { image: 'nginx' } } },
    check: (s, t) => {
      t.notOk('cmd' in s);
      t.strictSame(appEcho(s).container, { type: 'DOCKER', docker: { image: 'nginx', forcePullImage: false, privileged: false } });
    },
  },
  {
    name: 'acceptedResourceRoles are echoed when given, absent otherwise',
    over: { acceptedResourceRoles: ['*'] },
    check: (s, t) => {
      t.strictSame(s.acceptedResourceRoles, ['*']);
      t.strictSame(appEcho(s).acceptedResourceRoles, ['*']);
    },
  },
  {
    name: 'the legacy ports list becomes portDefinitions',
    over: { ports: [0, 0] },
    check: (s, t) => {
      t.strictSame(appEcho(s).portDefinitions, [{ port: 0, protocol: 'tcp' }, { port: 0, protocol: 'tcp' }]);
      t.notOk('ports' in appEcho(s));
      t.strictSame(s.hostPorts, [0, 0]);
    },
  },
  {
    name: 'the legacy uris list becomes fetch',
    over: { uris: ['http://x/app.tar.gz', 'http://x/run.sh'] },
    check: (s, t) => {
      t.strictSame(appEcho(s).fetch, [
        { uri: 'http://x/app.tar.gz', extract: true, executable: false, cache: false },
        { uri: 'http://x/run.sh', extract: false, executable: false, cache: false },
      ]);
      t.notOk('uris' in appEcho(s));
    },
  },
  {
    name: 'unknown fields pass through; read-only response fields are dropped',
    over: { user: 'nobody', dependencies: ['/db'], tasksRunning: 3, deployments: [], version: '2000-01-01T00:00:00.000Z' },
    check: (s, t) => {
      t.equal(appEcho(s).user, 'nobody');
      t.strictSame(appEcho(s).dependencies, ['/db']);
      t.notOk('tasksRunning' in appEcho(s));
      t.notOk('deployments' in appEcho(s));
      t.equal(appEcho(s).version, VERSION);
      t.equal(s.version, VERSION);
    },
  },
  {
    name: 'constraint operators are accepted in any case and echoed upper case',
    over: { constraints: [['hostname', 'unique'], ['rack', 'group_by', '3']] },
    check: (s, t) => {
      t.strictSame(s.constraints, [
        { field: 'hostname', operator: 'UNIQUE' },
        { field: 'rack', operator: 'GROUP_BY', value: '3' },
      ]);
      t.strictSame(appEcho(s).constraints, [['hostname', 'UNIQUE'], ['rack', 'GROUP_BY', '3']]);
    },
  },
  {
    name: 'a container network takes the default network name',
    over: { networks: [{ mode: 'container' }], container: { type: 'MESOS' } },
    check: (s, t) => t.strictSame(appEcho(s).networks, [{ mode: 'container', name: 'dcos' }]),
  },
];

for (const c of defaultCases) {
  t.test(`default: ${c.name}`, async (t) => {
    c.check(convertApp(makeAppJson(c.over), { ...CTX, defaultNetworkName: 'dcos' }), t);
  });
}

t.test('health checks: HTTP defaults (spec 2.5, facts 30)', async (t) => {
  const spec = convertApp(makeAppJson({ healthChecks: [{}] }));
  const wire = {
    protocol: 'HTTP',
    gracePeriodSeconds: 300,
    intervalSeconds: 60,
    timeoutSeconds: 20,
    maxConsecutiveFailures: 3,
    delaySeconds: 15,
    ipProtocol: 'IPv4',
    portIndex: 0,
    path: '/',
    ignoreHttp1xx: false,
  };
  t.strictSame(appEcho(spec).healthChecks, [wire]);
  t.strictSame(spec.healthChecks, [{
    protocol: 'HTTP',
    gracePeriodMs: 300_000,
    intervalMs: 60_000,
    timeoutMs: 20_000,
    maxConsecutiveFailures: 3,
    delayMs: 15_000,
    portIndex: 0,
    path: '/',
    ignoreHttp1xx: false,
    ipProtocol: 'IPv4',
    form: 'app',
  }]);
});

interface CheckCase {
  readonly name: string;
  readonly app: Record<string, unknown>;
  readonly protocol: string;
  readonly spec: Record<string, unknown>;
  readonly wire: Record<string, unknown>;
  /** The port probed on a task whose host ports are [31000] (`healthCheckPort`). */
  readonly probes?: number;
}

const checkCases: readonly CheckCase[] = [
  {
    name: 'MESOS_HTTP is stored and echoed as Marathon spells it',
    app: { healthChecks: [{ protocol: 'MESOS_HTTP', path: '/ping' }] },
    protocol: 'MESOS_HTTP',
    spec: { portIndex: 0, path: '/ping', ignoreHttp1xx: false },
    wire: { protocol: 'MESOS_HTTP', portIndex: 0, path: '/ping' },
  },
  {
    name: 'AGENT_HTTP (the spec\'s stand-in) is an alias of MESOS_HTTP',
    app: { healthChecks: [{ protocol: 'AGENT_HTTP', path: '/ping' }] },
    protocol: 'MESOS_HTTP',
    spec: { portIndex: 0, path: '/ping', ignoreHttp1xx: false },
    wire: { protocol: 'MESOS_HTTP', portIndex: 0, path: '/ping' },
  },
  {
    name: 'agent_https (any case) is an alias of MESOS_HTTPS',
    app: { healthChecks: [{ protocol: 'agent_https' }] },
    protocol: 'MESOS_HTTPS',
    spec: { portIndex: 0, path: '/' },
    wire: { protocol: 'MESOS_HTTPS', path: '/' },
  },
  {
    name: 'AGENT_TCP is an alias of MESOS_TCP and has no path',
    app: { healthChecks: [{ protocol: 'AGENT_TCP' }] },
    protocol: 'MESOS_TCP',
    spec: { portIndex: 0 },
    wire: { protocol: 'MESOS_TCP', portIndex: 0 },
  },
  {
    name: 'protocols are accepted in any case',
    app: { healthChecks: [{ protocol: 'https', ignoreHttp1xx: true }] },
    protocol: 'HTTPS',
    spec: { ignoreHttp1xx: true },
    wire: { protocol: 'HTTPS', ignoreHttp1xx: true },
  },
  {
    name: 'TCP gets portIndex 0 and no path',
    app: { healthChecks: [{ protocol: 'TCP', gracePeriodSeconds: 5, maxConsecutiveFailures: 0 }] },
    protocol: 'TCP',
    spec: { portIndex: 0, gracePeriodMs: 5000, maxConsecutiveFailures: 0 },
    wire: { protocol: 'TCP', portIndex: 0, gracePeriodSeconds: 5, maxConsecutiveFailures: 0 },
  },
  {
    name: 'a fixed port wins and no portIndex is added',
    app: { healthChecks: [{ protocol: 'HTTP', port: 8080 }] },
    protocol: 'HTTP',
    spec: { port: 8080 },
    wire: { port: 8080 },
  },
  {
    name: 'COMMAND takes command.value and has no port',
    app: { healthChecks: [{ protocol: 'COMMAND', command: { value: 'curl -f localhost' } }] },
    protocol: 'COMMAND',
    spec: { command: 'curl -f localhost' },
    wire: { protocol: 'COMMAND', command: { value: 'curl -f localhost' } },
  },
  {
    name: 'portIndex addresses the host port of a mapping (only mappings with hostPort count)',
    app: {
      networks: [{ mode: 'container', name: 'overlay' }],
      container: { type: 'MESOS', portMappings: [{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }] },
      healthChecks: [{ protocol: 'HTTP', portIndex: 1 }],
    },
    protocol: 'HTTP',
    spec: { portIndex: 1 },
    wire: { portIndex: 1 },
    probes: 31000,
  },
  {
    name: 'a mapping without host port is checked on its container port',
    app: {
      networks: [{ mode: 'container', name: 'overlay' }],
      container: { type: 'MESOS', portMappings: [{ containerPort: 80 }] },
      healthChecks: [{ protocol: 'MESOS_HTTP' }],
    },
    protocol: 'MESOS_HTTP',
    spec: { portIndex: 0 },
    wire: { portIndex: 0 },
    probes: 80,
  },
];

for (const c of checkCases) {
  t.test(`health check: ${c.name}`, async (t) => {
    const spec = convertApp(makeAppJson(c.app));
    t.equal(spec.healthChecks.length, 1);
    const check = spec.healthChecks[0];
    t.equal(check.protocol, c.protocol);
    t.match(check, c.spec);
    const wire = (appEcho(spec).healthChecks as Record<string, unknown>[])[0];
    t.match(wire, c.wire);
    if (c.protocol.includes('TCP') || c.protocol === 'COMMAND') t.notOk('path' in wire);
    if ('port' in c.wire) t.notOk('portIndex' in wire, 'no portIndex added next to a fixed port');
    if (c.probes !== undefined) t.equal(healthCheckPort(spec, check, [31000]), c.probes);
  });
}

interface PortCase {
  readonly name: string;
  readonly over: Record<string, unknown>;
  readonly hostPorts: readonly number[];
  readonly requirePorts: boolean;
}

const portCases: readonly PortCase[] = [
  { name: 'default host networking: one dynamic port', over: {}, hostPorts: [0], requirePorts: false },
  {
    name: 'host networking without requirePorts: every port dynamic',
    over: { portDefinitions: [{ port: 10001 }, { port: 0 }] },
    hostPorts: [0, 0],
    requirePorts: false,
  },
  {
    name: 'host networking with requirePorts: the given ports exactly',
    over: { requirePorts: true, portDefinitions: [{ port: 10001 }, { port: 0 }] },
    hostPorts: [10001, 0],
    requirePorts: true,
  },
  { name: 'an empty portDefinitions list needs no port', over: { portDefinitions: [] }, hostPorts: [], requirePorts: false },
  {
    name: 'container networking: only mappings with a hostPort need one',
    over: {
      networks: [{ mode: 'container', name: 'overlay' }],
      requirePorts: true,
      container: { type: 'MESOS', portMappings: [{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }, { containerPort: 82, hostPort: 31000 }] },
    },
    hostPorts: [0, 31000],
    requirePorts: false,
  },
  {
    name: 'container networking without mappings: the default mapping needs no host port',
    over: { networks: [{ mode: 'container', name: 'overlay' }] },
    hostPorts: [],
    requirePorts: false,
  },
  {
    name: 'bridge networking: a mapping without hostPort gets 0 (Marathon)',
    over: {
      networks: [{ mode: 'container/bridge' }],
      container: { type: 'DOCKER', docker: { image: 'nginx' }, portMappings: [{ containerPort: 80 }, { containerPort: 81, hostPort: 8081 }] },
    },
    hostPorts: [0, 8081],
    requirePorts: false,
  },
  {
    name: 'legacy docker BRIDGE network and docker.portMappings',
    over: { container: { type: 'DOCKER', docker: { image: 'nginx', network: 'BRIDGE', portMappings: [{ containerPort: 80 }] } } },
    hostPorts: [0],
    requirePorts: false,
  },
];

for (const c of portCases) {
  t.test(`hostPorts: ${c.name}`, async (t) => {
    const spec = convertApp(makeAppJson(c.over));
    t.strictSame(spec.hostPorts, c.hostPorts);
    t.equal(spec.requirePorts, c.requirePorts);
    t.equal(appEcho(spec).requirePorts, c.requirePorts);
  });
}

t.test('container networking echoes normalized port mappings and no portDefinitions', async (t) => {
  const spec = convertApp(makeAppJson({
    networks: [{ mode: 'container/bridge' }],
    container: { type: 'DOCKER', docker: { image: 'nginx' }, portMappings: [{ containerPort: 80, name: 'http' }] },
  }));
  t.notOk('portDefinitions' in appEcho(spec));
  t.strictSame(appEcho(spec).networks, [{ mode: 'container/bridge' }]);
  t.strictSame(appEcho(spec).container, {
    type: 'DOCKER',
    docker: { image: 'nginx', forcePullImage: false, privileged: false },
    portMappings: [{ containerPort: 80, hostPort: 0, servicePort: 0, protocol: 'tcp', name: 'http' }],
  });
});

t.test('legacy docker network is translated into networks and removed from docker', async (t) => {
  const spec = convertApp(makeAppJson({
    container: { type: 'DOCKER', docker: { image: 'nginx', network: 'BRIDGE', portMappings: [{ containerPort: 80 }] } },
  }));
  t.strictSame(appEcho(spec).networks, [{ mode: 'container/bridge' }]);
  t.strictSame(appEcho(spec).container, {
    type: 'DOCKER',
    docker: { image: 'nginx', forcePullImage: false, privileged: false },
    portMappings: [{ containerPort: 80, hostPort: 0, servicePort: 0, protocol: 'tcp' }],
  });
});

t.test('the deprecated ipAddress is translated into networks (and its discovery ports into port mappings), never echoed (fact 116)', async (t) => {
  const cases: { name: string; over: Record<string, unknown>; networks: unknown; container: unknown; hostPorts: number[] }[] = [
    {
      name: 'a named network: a container network with its labels, an empty Mesos container with the default mapping',
      over: { ipAddress: { networkName: 'dcos', labels: { a: 'b' }, groups: ['g'] } },
      networks: [{ mode: 'container', name: 'dcos', labels: { a: 'b' } }],
      container: { type: 'MESOS', portMappings: [{ containerPort: 0, servicePort: 0, protocol: 'tcp', name: 'default' }] },
      hostPorts: [],
    },
    {
      name: 'discovery ports become the Mesos container\'s port mappings',
      over: { ipAddress: { networkName: 'dcos', discovery: { ports: [{ number: 8080, name: 'http', protocol: 'tcp' }, { number: 53, name: 'dns', protocol: 'udp' }] } } },
      networks: [{ mode: 'container', name: 'dcos' }],
      container: { type: 'MESOS', portMappings: [{ containerPort: 8080, servicePort: 0, protocol: 'tcp', name: 'http' }, { containerPort: 53, servicePort: 0, protocol: 'udp', name: 'dns' }] },
      hostPorts: [],
    },
    {
      name: 'networkName mesos-bridge: a bridge network',
      over: { ipAddress: { networkName: 'mesos-bridge' } },
      networks: [{ mode: 'container/bridge' }],
      container: { type: 'MESOS', portMappings: [{ containerPort: 0, hostPort: 0, servicePort: 0, protocol: 'tcp', name: 'default' }] },
      hostPorts: [0],
    },
    {
      name: 'with docker network USER: a container network of that name',
      over: { ipAddress: { networkName: 'overlay' }, container: { type: 'DOCKER', docker: { image: 'nginx', network: 'USER' } } },
      networks: [{ mode: 'container', name: 'overlay' }],
      container: { type: 'DOCKER', docker: { image: 'nginx', forcePullImage: false, privileged: false }, portMappings: [{ containerPort: 0, servicePort: 0, protocol: 'tcp', name: 'default' }] },
      hostPorts: [],
    },
    {
      name: 'with docker network HOST: host networking',
      over: { ipAddress: { networkName: 'overlay' }, container: { type: 'DOCKER', docker: { image: 'nginx', network: 'HOST' } } },
      networks: [{ mode: 'host' }],
      container: { type: 'DOCKER', docker: { image: 'nginx', forcePullImage: false, privileged: false } },
      hostPorts: [0],
    },
  ];
  for (const c of cases) {
    const spec = convertApp(makeAppJson(c.over));
    const echo = appEcho(spec);
    t.strictSame(echo.networks, c.networks, `${c.name}: networks`);
    t.strictSame(echo.container, c.container, `${c.name}: container`);
    t.strictSame(spec.hostPorts, c.hostPorts, `${c.name}: host ports`);
    t.notOk('ipAddress' in echo, `${c.name}: ipAddress is not written`);
  }
  const unnamed = convertApp(makeAppJson({ ipAddress: {} }), { ...CTX, defaultNetworkName: 'dcos' });
  t.strictSame(appEcho(unnamed).networks, [{ mode: 'container', name: 'dcos' }], 'no name: the default network name');
});

t.test('fields Marathon\'s writer always gives are written at their defaults when left out', async (t) => {
  const cases: { name: string; over: Record<string, unknown>; check: (echo: Record<string, unknown>) => unknown; want: unknown }[] = [
    { name: 'a container without type and with docker settings is a Docker one', over: { container: { docker: { image: 'busybox' } } }, check: (e) => (e.container as { type: unknown }).type, want: 'DOCKER' },
    { name: 'a container without type or docker settings is a Mesos one', over: { container: { volumes: [{ containerPath: '/tmp', hostPath: '/tmp', mode: 'RO' }] } }, check: (e) => (e.container as { type: unknown }).type, want: 'MESOS' },
    { name: 'docker forcePullImage and privileged: false', over: { container: { type: 'DOCKER', docker: { image: 'busybox' } } }, check: (e) => (e.container as { docker: unknown }).docker, want: { image: 'busybox', forcePullImage: false, privileged: false } },
    { name: 'a fetch entry: extract true, executable and cache false', over: { fetch: [{ uri: 'http://x/a.tar.gz' }] }, check: (e) => e.fetch, want: [{ uri: 'http://x/a.tar.gz', extract: true, executable: false, cache: false }] },
    { name: 'given flags are kept', over: { fetch: [{ uri: 'http://x/a', extract: false, executable: true, cache: true, destPath: 'b' }] }, check: (e) => e.fetch, want: [{ uri: 'http://x/a', extract: false, executable: true, cache: true, destPath: 'b' }] },
    { name: 'executorResources given in part: the rest at 0.1, 32, 10', over: { executorResources: { cpus: 0.2 } }, check: (e) => e.executorResources, want: { cpus: 0.2, mem: 32, disk: 10 } },
    {
      name: 'a persistent volume without type: root',
      over: { id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 10 } }] } },
      check: (e) => ((e.container as { volumes: { persistent: unknown }[] }).volumes[0] as { persistent: unknown }).persistent, want: { type: 'root', size: 10 },
    },
  ];
  for (const c of cases) t.strictSame(c.check(appEcho(convertApp(makeAppJson(c.over)))), c.want, c.name);
});

t.test('resident apps get {0.5, 0}, unreachable disabled and residency', async (t) => {
  const volumes = [{ containerPath: 'data', mode: 'RW', persistent: { size: 10 } }];
  const spec = convertApp(makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes } }));
  t.equal(spec.resident, true);
  t.equal(spec.role, 'dev');
  t.strictSame(spec.upgrade, { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 });
  t.strictSame(spec.unreachable, { kind: 'disabled' });
  t.equal(appEcho(spec).unreachableStrategy, 'disabled');
  t.strictSame(appEcho(spec).upgradeStrategy, { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 });
  t.strictSame(appEcho(spec).residency, { relaunchEscalationTimeoutSeconds: 3600, taskLostBehavior: 'WAIT_FOREVER' });
});

t.test('external volumes change only the upgrade default', async (t) => {
  const volumes = [{ containerPath: 'data', mode: 'RW', external: { name: 'vol', provider: 'dvdi', options: { 'dvdi/driver': 'rexray' } } }];
  const spec = convertApp(makeAppJson({ container: { type: 'MESOS', volumes } }));
  t.equal(spec.resident, false);
  t.strictSame(spec.upgrade, { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 });
  t.strictSame(spec.unreachable, { kind: 'enabled', inactiveAfterMs: 0, expungeAfterMs: 0 });
});

interface RoleCase {
  readonly name: string;
  readonly id: string;
  readonly role?: string;
  readonly accepted?: readonly string[];
  readonly ctx?: Partial<typeof CTX>;
  /** The resolved role, or the expected error at `path`. */
  readonly expect: string | { readonly path: string; readonly message: string };
}

const roleCases: readonly RoleCase[] = [
  { name: 'root app defaults to the default role', id: '/foo', expect: '*' },
  { name: 'root app may not use another role (facts 109)', id: '/foo', role: 'foo', expect: { path: '/role', message: 'got foo, expected one of: [*]' } },
  { name: 'group app may use the group role (facts 110)', id: '/dev/app', role: 'dev', expect: 'dev' },
  { name: 'group app defaults to the default role without enforcement', id: '/dev/app', expect: '*' },
  { name: 'group app may not use a third role', id: '/dev/app', role: 'foo', expect: { path: '/role', message: 'got foo, expected one of: [*, dev]' } },
  { name: 'enforced group role is the default (facts 111)', id: '/dev/x', ctx: { enforcedGroupRole: 'dev' }, expect: 'dev' },
  {
    name: 'enforced group role is the only one allowed',
    id: '/dev/x',
    role: '*',
    ctx: { enforcedGroupRole: 'dev' },
    expect: { path: '/role', message: 'got *, expected one of: [dev]' },
  },
  { name: 'an existing app keeps its old role under enforcement (fact 111)', id: '/dev/x', role: '*', ctx: { enforcedGroupRole: 'dev', previousRole: '*' }, expect: '*' },
  { name: 'an existing app may move to the group role', id: '/dev/x', role: 'dev', ctx: { enforcedGroupRole: 'dev', previousRole: '*' }, expect: 'dev' },
  {
    name: 'an existing app may not take a third role; the message lists the old one',
    id: '/dev/x',
    role: 'foo',
    ctx: { enforcedGroupRole: 'dev', previousRole: '*' },
    expect: { path: '/role', message: 'got foo, expected one of: [dev, *]' },
  },
  { name: 'without a role, an existing app gets the enforced default, not its old role', id: '/dev/x', ctx: { enforcedGroupRole: 'dev', previousRole: '*' }, expect: 'dev' },
  { name: 'the previous role does not widen the root', id: '/foo', role: 'old', ctx: { previousRole: 'old' }, expect: { path: '/role', message: 'got old, expected one of: [*]' } },
  { name: 'a configured default role is used', id: '/foo', ctx: { defaultRole: 'marathon' }, expect: 'marathon' },
  { name: 'role names are checked', id: '/dev/app', role: 'a/b', expect: { path: '/role', message: 'A role name must not include a slash (\\x2f) character.' } },
  { name: 'accepted roles ["*", role] are fine', id: '/dev/app', role: 'dev', accepted: ['*', 'dev'], expect: 'dev' },
  { name: 'accepted roles [role] are fine', id: '/dev/app', role: 'dev', accepted: ['dev'], expect: 'dev' },
  {
    name: 'accepted roles with role * may contain only * (facts 113)',
    id: '/foo',
    accepted: ['foo'],
    expect: { path: '/acceptedResourceRoles', message: 'acceptedResourceRoles can only contain *' },
  },
  {
    name: 'accepted roles may contain only * and the role',
    id: '/dev/app',
    role: 'dev',
    accepted: ['foo'],
    expect: { path: '/acceptedResourceRoles', message: 'acceptedResourceRoles can only contain * and dev' },
  },
  { name: 'accepted roles must not be empty', id: '/foo', accepted: [], expect: { path: '/acceptedResourceRoles', message: 'must not be empty' } },
];

for (const c of roleCases) {
  t.test(`roles: ${c.name}`, async (t) => {
    const json = makeAppJson({ id: c.id, role: c.role, acceptedResourceRoles: c.accepted });
    const result = appFromWire(json, { ...CTX, ...c.ctx });
    if (typeof c.expect === 'string') {
      t.ok(result.ok, JSON.stringify(result));
      if (result.ok) {
        t.equal(result.spec.role, c.expect);
        t.equal(appEcho(result.spec).role, c.expect);
      }
    } else {
      t.strictSame(appErrors(json, { ...CTX, ...c.ctx }), [{ path: c.expect.path, errors: [c.expect.message] }]);
    }
  });
}

interface ErrorCase {
  readonly name: string;
  readonly json: unknown;
  readonly path: string;
  readonly message: string;
}

const PERSISTENT = { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 1 } }] };
const CMD_MESSAGE = "AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'.";

const errorCases: readonly ErrorCase[] = [
  { name: 'not an object', json: [], path: '/', message: 'error.expected.jsobject' },
  { name: 'id missing (facts 25)', json: makeAppJson({ id: undefined }), path: '/id', message: 'error.path.missing' },
  { name: 'id not a string', json: makeAppJson({ id: 123 }), path: '/id', message: 'error.expected.jsstring' },
  { name: 'relative id', json: makeAppJson({ id: 'foo' }), path: '/id', message: "id must be an absolute path starting with '/'" },
  { name: 'upper-case id (facts 26)', json: makeAppJson({ id: '/Foo' }), path: '/id', message: 'error.pattern' },
  { name: 'id segment starting with -', json: makeAppJson({ id: '/a/-b' }), path: '/id', message: 'error.pattern' },
  { name: 'id segment ending with -', json: makeAppJson({ id: '/a-' }), path: '/id', message: 'error.pattern' },
  { name: 'id with _', json: makeAppJson({ id: '/a_b' }), path: '/id', message: 'error.pattern' },
  { name: 'id with an empty segment', json: makeAppJson({ id: '/a//b' }), path: '/id', message: 'error.pattern' },
  {
    name: 'id ending with a reserved word',
    json: makeAppJson({ id: '/a/tasks' }),
    path: '/id',
    message: 'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..',
  },
  { name: 'nothing to run (facts 23)', json: { id: '/foo' }, path: '/', message: CMD_MESSAGE },
  { name: 'both cmd and args (facts 23)', json: makeAppJson({ args: ['x'] }), path: '/', message: CMD_MESSAGE },
  { name: 'empty cmd (facts 118)', json: makeAppJson({ cmd: '' }), path: '/cmd', message: 'must not be an empty string' },
  { name: 'negative instances (facts 24)', json: makeAppJson({ instances: -1 }), path: '/instances', message: 'error.min' },
  { name: 'fractional instances', json: makeAppJson({ instances: 0.1 }), path: '/instances', message: 'error.expected.int' },
  { name: 'negative cpus', json: makeAppJson({ cpus: -1 }), path: '/cpus', message: 'error.min' },
  { name: 'negative mem', json: makeAppJson({ mem: -128 }), path: '/mem', message: 'error.min' },
  { name: 'negative disk', json: makeAppJson({ disk: -1 }), path: '/disk', message: 'error.min' },
  { name: 'fractional gpus', json: makeAppJson({ gpus: 0.5 }), path: '/gpus', message: 'error.expected.int' },
  { name: 'cpus not a number', json: makeAppJson({ cpus: '1' }), path: '/cpus', message: 'error.expected.jsnumber' },
  { name: 'backoffFactor below 1', json: makeAppJson({ backoffFactor: 0.5 }), path: '/backoffFactor', message: 'error.min' },
  {
    name: 'minimumHealthCapacity above 1 (facts 27)',
    json: makeAppJson({ upgradeStrategy: { minimumHealthCapacity: 1.2, maximumOverCapacity: 0 } }),
    path: '/upgradeStrategy/minimumHealthCapacity',
    message: 'error.max',
  },
  {
    name: 'maximumOverCapacity below 0',
    json: makeAppJson({ upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: -0.1 } }),
    path: '/upgradeStrategy/maximumOverCapacity',
    message: 'error.min',
  },
  {
    name: 'unknown constraint operator (facts 32)',
    json: makeAppJson({ constraints: [['hostname', 'NEAR']] }),
    path: '/constraints/0',
    message: 'operator must be one of the following UNIQUE, CLUSTER, GROUP_BY, LIKE, MAX_PER, UNLIKE or IS',
  },
  {
    name: 'constraint with one element',
    json: makeAppJson({ constraints: [['hostname', 'UNIQUE'], ['hostname']] }),
    path: '/constraints/1',
    message: 'Each constraint must have either 2 or 3 fields',
  },
  {
    name: 'constraint with four elements',
    json: makeAppJson({ constraints: [['a', 'LIKE', 'b', 'c']] }),
    path: '/constraints/0',
    message: 'Each constraint must have either 2 or 3 fields',
  },
  {
    name: 'constraint element not a string',
    json: makeAppJson({ constraints: [['a', 'MAX_PER', 2]] }),
    path: '/constraints/0/2',
    message: 'error.expected.jsstring',
  },
  {
    name: 'unknown health check protocol',
    json: makeAppJson({ healthChecks: [{ protocol: 'HTTP2' }] }),
    path: '/healthChecks/0/protocol',
    message: 'protocol must be one of HTTP, HTTPS, TCP, COMMAND, MESOS_HTTP, MESOS_HTTPS, MESOS_TCP (AGENT_HTTP, AGENT_HTTPS, AGENT_TCP are accepted as aliases)',
  },
  {
    name: 'mixing agent-level and scheduler-level checks (spec 2.5 rule 6)',
    json: makeAppJson({ healthChecks: [{ protocol: 'HTTP' }, { protocol: 'MESOS_TCP' }] }),
    path: '/healthChecks',
    message: 'agent-level (MESOS_HTTP, MESOS_HTTPS, MESOS_TCP, COMMAND) and scheduler-level (HTTP, HTTPS, TCP) health checks cannot be combined',
  },
  {
    name: 'two agent-level checks (facts 29)',
    json: makeAppJson({ healthChecks: [{ protocol: 'MESOS_TCP' }, { protocol: 'COMMAND', command: { value: 'true' } }] }),
    path: '/',
    message: 'AppDefinition can contain at most one Mesos health check',
  },
  {
    name: 'portIndex out of range (facts 28)',
    json: makeAppJson({ healthChecks: [{ protocol: 'HTTP', portIndex: 1 }] }),
    path: '/healthChecks/0',
    message: 'Health check port indices must address an element of the ports array or container port mappings.',
  },
  {
    name: 'port-based check on an app without ports',
    json: makeAppJson({ portDefinitions: [], healthChecks: [{ protocol: 'TCP' }] }),
    path: '/healthChecks/0',
    message: 'Health check port indices must address an element of the ports array or container port mappings.',
  },
  {
    name: 'COMMAND check without command',
    json: makeAppJson({ healthChecks: [{ protocol: 'COMMAND' }] }),
    path: '/healthChecks/0/command',
    message: 'error.path.missing',
  },
  {
    name: 'zero health check interval',
    json: makeAppJson({ healthChecks: [{ intervalSeconds: 0 }] }),
    path: '/healthChecks/0/intervalSeconds',
    message: 'error.min',
  },
  {
    name: 'unknown killSelection',
    json: makeAppJson({ killSelection: 'RANDOM' }),
    path: '/killSelection',
    message: 'killSelection must be one of YOUNGEST_FIRST, OLDEST_FIRST',
  },
  {
    name: 'inactiveAfterSeconds above expungeAfterSeconds (facts 33)',
    json: makeAppJson({ unreachableStrategy: { inactiveAfterSeconds: 600, expungeAfterSeconds: 60 } }),
    path: '/unreachableStrategy/inactiveAfterSeconds',
    message: 'inactiveAfterSeconds (600) must be less or equal to expungeAfterSeconds, which is 60',
  },
  {
    name: 'unreachableStrategy string other than disabled',
    json: makeAppJson({ unreachableStrategy: 'never' }),
    path: '/unreachableStrategy',
    message: 'unreachableStrategy must be "disabled" or an object',
  },
  {
    name: 'label value not a string',
    json: makeAppJson({ labels: { a: 1 } }),
    path: '/labels/a',
    message: 'error.expected.jsstring',
  },
  {
    // Marathon's SecretValidation.secretRefValidator: an env reference names a declared secret.
    name: 'env references a secret the app does not declare',
    json: makeAppJson({ env: { DB: { secret: 'nope' } }, secrets: { other: { source: '/o' } } }),
    path: '/env/DB/secret',
    message: "references an undefined secret named 'nope'",
  },
  {
    name: 'env value neither string nor secret',
    json: makeAppJson({ env: { A: true } }),
    path: '/env/A',
    message: 'error.expected.jsstring',
  },
  {
    name: 'duplicate non-zero ports (facts 117)',
    json: makeAppJson({ portDefinitions: [{ port: 10000 }, { port: 10000 }] }),
    path: '/portDefinitions',
    message: 'Ports must be unique.',
  },
  {
    name: 'duplicate port names (facts 117)',
    json: makeAppJson({ portDefinitions: [{ port: 0, name: 'a' }, { port: 0, name: 'a' }] }),
    path: '/portDefinitions',
    message: 'Port names must be unique.',
  },
  {
    name: 'ports and different portDefinitions (facts 116)',
    json: makeAppJson({ ports: [1], portDefinitions: [{ port: 2 }] }),
    path: '/',
    message: 'cannot specify both ports and port definitions',
  },
  {
    name: 'portDefinitions with container networking (facts 117)',
    json: makeAppJson({ networks: [{ mode: 'container', name: 'n' }], portDefinitions: [{ port: 0 }] }),
    path: '/portDefinitions',
    message: 'portDefinitions are only allowed with host-networking',
  },
  {
    name: 'portMappings with host networking (facts 117)',
    json: makeAppJson({ container: { type: 'MESOS', portMappings: [{ containerPort: 80 }] } }),
    path: '/container/portMappings',
    message: 'portMappings are not allowed with host-networking',
  },
  {
    name: 'container network without a name and no default network name',
    json: makeAppJson({ networks: [{ mode: 'container' }] }),
    path: '/networks/0/name',
    message: 'networks of mode container must have a name when no default network name is configured',
  },
  {
    name: 'unknown network mode',
    json: makeAppJson({ networks: [{ mode: 'bridge' }] }),
    path: '/networks/0/mode',
    message: 'mode must be one of host, container, container/bridge',
  },
  {
    name: 'host network combined with another',
    json: makeAppJson({ networks: [{ mode: 'host' }, { mode: 'container', name: 'n' }] }),
    path: '/networks',
    message: 'host and container/bridge networking must be the only network: give one host network, one bridge network, or one or more container networks',
  },
  {
    name: 'both uris and fetch',
    json: makeAppJson({ uris: ['http://a'], fetch: [{ uri: 'http://b' }] }),
    path: '/',
    message: 'cannot specify both uris and fetch fields',
  },
  {
    name: 'resident app with role * (facts 114)',
    json: makeAppJson({ container: PERSISTENT }),
    path: '/role',
    message: 'Resident apps cannot have the role *',
  },
  {
    name: 'persistent volume at containerPath . (the sandbox itself)',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: '.', mode: 'RW', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/containerPath',
    message: 'must not be one of (., ..)',
  },
  {
    name: 'persistent volume at containerPath ..',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: '..', mode: 'RW', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/containerPath',
    message: 'must not be one of (., ..)',
  },
  {
    name: 'persistent volume at containerPath ./',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: './', mode: 'RW', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/containerPath',
    message: 'value must not contain "/"',
  },
  {
    name: 'persistent volume at containerPath a/b',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'a/b', mode: 'RW', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/containerPath',
    message: 'value must not contain "/"',
  },
  {
    name: 'persistent volume at an absolute containerPath',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: '/data', mode: 'RW', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/containerPath',
    message: 'value must not contain "/"',
  },
  {
    name: 'persistent volume read-only',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RO', persistent: { size: 1 } }] } }),
    path: '/container/volumes/0/mode',
    message: 'got RO, expected RW: a persistent volume is read-write',
  },
  {
    name: 'persistent root volume with maxSize',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 1, maxSize: 5 } }] } }),
    path: '/container/volumes/0/persistent/maxSize',
    message: 'Only mount volumes can have maxSize',
  },
  {
    name: 'persistent mount volume with maxSize not above size',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { type: 'mount', size: 5, maxSize: 5 } }] } }),
    path: '/container/volumes/0/persistent/maxSize',
    message: 'Max size must be larger than size',
  },
  {
    name: 'persistent root volume with constraints',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 1, constraints: [['path', 'LIKE', 'ssd']] } }] } }),
    path: '/container/volumes/0/persistent/constraints',
    message: 'Constraints on root volumes are not supported',
  },
  {
    name: 'resident app with an enabled unreachableStrategy',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: PERSISTENT, unreachableStrategy: { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 } }),
    path: '/unreachableStrategy',
    message: 'unreachableStrategy must be disabled for apps with persistent volumes',
  },
  {
    name: 'resident app with maximumOverCapacity above 0',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: PERSISTENT, upgradeStrategy: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.5 } }),
    path: '/upgradeStrategy/maximumOverCapacity',
    message: 'maximumOverCapacity must be 0 for run specs with persistent volumes',
  },
  {
    name: 'resident app accepting reserved resources',
    json: makeAppJson({ id: '/dev/db', role: 'dev', container: PERSISTENT, acceptedResourceRoles: ['dev'] }),
    path: '/acceptedResourceRoles',
    message: 'A resident app must have `acceptedResourceRoles = ["*"]`.',
  },
  {
    name: 'ipAddress together with networks',
    json: makeAppJson({ ipAddress: { networkName: 'n' }, networks: [{ mode: 'container', name: 'n' }] }),
    path: '/ipAddress',
    message: 'cannot mix deprecated and canonical network APIs',
  },
  {
    name: 'ipAddress without a network name and no default network name',
    json: makeAppJson({ ipAddress: {} }),
    path: '/ipAddress/networkName',
    message: 'networks of mode container must have a name when no default network name is configured',
  },
  {
    name: 'ipAddress discovery ports with a Docker container (a container without type is one)',
    json: makeAppJson({ ipAddress: { networkName: 'n', discovery: { ports: [{ number: 80, name: 'http' }] } }, container: { docker: { image: 'nginx' } } }),
    path: '/ipAddress/discovery/ports',
    message: 'ipAddress.discovery.ports do not apply for container type DOCKER',
  },
  {
    name: 'ipAddress discovery ports beside container.portMappings',
    json: makeAppJson({ ipAddress: { networkName: 'n', discovery: { ports: [{ number: 80, name: 'http' }] } }, container: { type: 'MESOS', portMappings: [{ containerPort: 81 }] } }),
    path: '/ipAddress/discovery/ports',
    message: 'container.portMappings and ipAddress.discovery.ports must not both be set',
  },
  {
    name: 'ipAddress with an unknown docker network',
    json: makeAppJson({ ipAddress: { networkName: 'n' }, container: { type: 'DOCKER', docker: { image: 'nginx', network: 'NONE' } } }),
    path: '/container/docker/network',
    message: 'unsupported docker network type NONE',
  },
];

for (const c of errorCases) {
  t.test(`error: ${c.name}`, async (t) => {
    t.strictSame(appErrors(c.json), [{ path: c.path, errors: [c.message] }]);
  });
}

t.test('every problem is reported at once, one entry per path', async (t) => {
  const errors = appErrors({
    id: '/Bad',
    instances: -1,
    cpus: 'x',
    constraints: [['a', 'NOPE']],
    role: 'other',
  });
  t.strictSame(errors.map((e) => e.path), ['/id', '/', '/instances', '/cpus', '/constraints/0']);
});

t.test('persistent volumes Marathon accepts: one relative segment, RW, maxSize above size on a mount volume, constraints on a path volume', async (t) => {
  const volumes = [
    { containerPath: 'data', mode: 'RW', persistent: { type: 'mount', size: 1, maxSize: 2 } },
    { containerPath: 'logs', persistent: { type: 'path', size: 1, constraints: [['path', 'LIKE', 'ssd']] } },
    { containerPath: '.cache', mode: 'RW', persistent: { size: 1 } },
  ];
  const result = appFromWire(makeAppJson({ id: '/dev/db', role: 'dev', container: { type: 'MESOS', volumes } }), CTX);
  t.ok(result.ok, JSON.stringify(result));
});
