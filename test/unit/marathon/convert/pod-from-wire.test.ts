import t from 'tap';
import { podFromWire } from '../../../../src/marathon/convert/pod-from-wire';
import { gracePeriodMs } from '../../../../src/scheduler/kill/kill-instance';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import { convertPod, CTX, makeContainerJson, makePodJson, minimalPodEcho, podEcho, podErrors, VERSION } from './fixtures/builders';

t.test('a minimal pod gets the full definition (spec 2.1–2.3, README resolutions)', async (t) => {
  t.strictSame(podEcho(convertPod(makePodJson())), minimalPodEcho());
});

t.test('a minimal pod normalizes into the core model', async (t) => {
  const spec = convertPod(makePodJson());
  t.strictSame(spec, {
    kind: 'pod',
    id: '/p',
    version: VERSION,
    versionInfo: { lastScalingAt: VERSION, lastConfigChangeAt: VERSION },
    instances: 1,
    role: '*',
    acceptedResourceRoles: [],
    constraints: [],
    backoff: { initialMs: 1000, factor: 1.15, maxMs: 3_600_000 },
    upgrade: { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
    unreachable: { kind: 'enabled', inactiveAfterMs: 900_000, expungeAfterMs: 604_800_000 },
    killSelection: 'YOUNGEST_FIRST',
    labels: {},
    resident: false,
    containers: [{
      name: 'c',
      resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 },
      endpoints: [],
      exec: { command: { shell: 'sleep 1000' } },
      env: {},
      envSecrets: {},
      volumeMounts: [],
      artifacts: [],
      labels: {},
    }],
    executorResources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 10_000, gpus: 0 },
    networks: [{ mode: 'host', labels: {} }],
    networkMode: 'host',
    volumes: [],
    env: {},
    envSecrets: {},
    secrets: {},
  });
});

interface DefaultCase {
  readonly name: string;
  readonly pod?: Record<string, unknown>;
  readonly container?: Record<string, unknown>;
  readonly check: (spec: PodSpec, t: tap.Test) => void;
}

const containerDef = (s: PodSpec, i = 0): Record<string, unknown> =>
  (podEcho(s).containers as Record<string, unknown>[])[i];
const schedulingDef = (s: PodSpec): Record<string, unknown> => podEcho(s).scheduling as Record<string, unknown>;

const defaultCases: readonly DefaultCase[] = [
  {
    name: 'empty container resources take cpus 1, mem 128, disk 0, gpus 0',
    container: { resources: {} },
    check: (s, t) => {
      t.strictSame(s.containers[0].resources, { cpusMilli: 1000, memMilli: 128_000, diskMilli: 0, gpus: 0 });
      t.strictSame(containerDef(s).resources, { cpus: 1, mem: 128, disk: 0, gpus: 0 });
    },
  },
  {
    name: 'scaling instances and maxInstances',
    pod: { scaling: { kind: 'fixed', instances: 3, maxInstances: 5 } },
    check: (s, t) => {
      t.equal(s.instances, 3);
      t.strictSame(podEcho(s).scaling, { kind: 'fixed', instances: 3, maxInstances: 5 });
    },
  },
  {
    name: 'executorResources are converted',
    pod: { executorResources: { cpus: 0.5, mem: 64 } },
    check: (s, t) => {
      t.strictSame(s.executorResources, { cpusMilli: 500, memMilli: 64_000, diskMilli: 10_000, gpus: 0 });
      t.strictSame(podEcho(s).executorResources, { cpus: 0.5, mem: 64, disk: 10 });
    },
  },
  {
    name: 'scheduling values are converted; killSelection in any case',
    pod: {
      scheduling: {
        backoff: { backoff: 2, backoffFactor: 2, maxLaunchDelay: 60 },
        upgrade: { minimumHealthCapacity: 0, maximumOverCapacity: 0.5 },
        killSelection: 'Oldest_First',
        unreachableStrategy: 'disabled',
        placement: { constraints: [{ fieldName: 'hostname', operator: 'unique' }, ['rack', 'MAX_PER', '2']] },
      },
    },
    check: (s, t) => {
      t.strictSame(s.backoff, { initialMs: 2000, factor: 2, maxMs: 60_000 });
      t.strictSame(s.upgrade, { minimumHealthCapacity: 0, maximumOverCapacity: 0.5 });
      t.equal(s.killSelection, 'OLDEST_FIRST');
      t.strictSame(s.unreachable, { kind: 'disabled' });
      t.strictSame(s.constraints, [
        { field: 'hostname', operator: 'UNIQUE' },
        { field: 'rack', operator: 'MAX_PER', value: '2' },
      ]);
      t.match(schedulingDef(s), {
        killSelection: 'OLDEST_FIRST',
        unreachableStrategy: 'disabled',
        // Marathon's object form, even for a constraint given as an array.
        placement: { constraints: [{ fieldName: 'hostname', operator: 'UNIQUE' }, { fieldName: 'rack', operator: 'MAX_PER', value: '2' }] },
      });
    },
  },
  {
    name: 'pod environment is inherited and overridden by containers',
    pod: { environment: { A: 'pod', B: 'pod' }, secrets: { s1: { source: '/s1' } } },
    container: { environment: { B: 'container', SECRET_1: { secret: 's1' } } },
    check: (s, t) => {
      t.strictSame(s.env, { A: 'pod', B: 'pod' });
      t.strictSame(s.containers[0].env, { B: 'container' }, 'the pod\'s variables are added at launch (task-env.ts)');
      t.strictSame(s.containers[0].envSecrets, { SECRET_1: 's1' });
      t.strictSame(podEcho(s).environment, { A: 'pod', B: 'pod' });
      t.strictSame(containerDef(s).environment, { B: 'container', SECRET_1: { secret: 's1' } });
    },
  },
  {
    name: 'lifecycle.killGracePeriodSeconds becomes killGracePeriodMs',
    container: { lifecycle: { killGracePeriodSeconds: 7 } },
    check: (s, t) => {
      t.equal(s.containers[0].killGracePeriodMs, 7000);
      t.strictSame(containerDef(s).lifecycle, { killGracePeriodSeconds: 7 });
    },
  },
  {
    name: 'image gets forcePull false',
    container: { image: { kind: 'DOCKER', id: 'nginx' } },
    check: (s, t) => t.strictSame(containerDef(s).image, { kind: 'DOCKER', id: 'nginx', forcePull: false }),
  },
  {
    name: 'host-mode endpoints: protocol lower-cased, hostPort defaults to 0',
    container: { endpoints: [{ name: 'web', protocol: ['HTTP', 'Tcp'] }, { name: 'admin', hostPort: 9000 }] },
    check: (s, t) => {
      t.strictSame(s.containers[0].endpoints, [
        { name: 'web', protocol: ['http', 'tcp'], hostPort: 0, labels: {}, networkNames: [] },
        { name: 'admin', protocol: ['tcp'], hostPort: 9000, labels: {}, networkNames: [] },
      ]);
      t.strictSame(containerDef(s).endpoints, [
        { name: 'web', containerPort: null, hostPort: 0, protocol: ['http', 'tcp'], labels: {} },
        { name: 'admin', containerPort: null, hostPort: 9000, protocol: ['tcp'], labels: {} },
      ]);
    },
  },
  {
    name: 'container-mode endpoints: no hostPort unless given',
    pod: { networks: [{ mode: 'container', name: 'overlay' }] },
    container: { endpoints: [{ name: 'web', containerPort: 80 }, { name: 'pub', containerPort: 81, hostPort: 0 }] },
    check: (s, t) => {
      t.equal(s.networkMode, 'container');
      t.strictSame(s.containers[0].endpoints, [
        { name: 'web', protocol: ['tcp'], containerPort: 80, labels: {}, networkNames: [] },
        { name: 'pub', protocol: ['tcp'], hostPort: 0, containerPort: 81, labels: {}, networkNames: [] },
      ]);
      t.strictSame(podEcho(s).networks, [{ mode: 'container', name: 'overlay', labels: {} }]);
    },
  },
  {
    name: 'a container network without name takes the default network name',
    pod: { networks: [{ mode: 'container' }] },
    container: { endpoints: [{ name: 'web', containerPort: 80 }] },
    check: (s, t) => t.strictSame(podEcho(s).networks, [{ mode: 'container', name: 'dcos', labels: {} }]),
  },
  {
    name: 'volumes and mounts are echoed',
    pod: { volumes: [{ name: 'scratch' }] },
    container: { volumeMounts: [{ name: 'scratch', mountPath: '/tmp/s' }] },
    check: (s, t) => {
      t.equal(s.resident, false);
      t.strictSame(podEcho(s).volumes, [{ name: 'scratch' }]);
      t.strictSame(containerDef(s).volumeMounts, [{ name: 'scratch', mountPath: '/tmp/s' }]);
    },
  },
  {
    name: 'accepted roles are echoed under placement',
    pod: { scheduling: { placement: { acceptedResourceRoles: ['*'] } } },
    check: (s, t) => {
      t.strictSame(s.acceptedResourceRoles, ['*']);
      t.match(schedulingDef(s), { placement: { constraints: [], acceptedResourceRoles: ['*'] } });
    },
  },
  {
    name: 'an explicitly empty accepted roles list is the default for pods',
    pod: { scheduling: { placement: { acceptedResourceRoles: [] } } },
    check: (s, t) => t.strictSame(s.acceptedResourceRoles, []),
  },
  {
    name: 'unknown fields pass through',
    pod: { legacySharedCgroups: true, secrets: { s1: { source: '/path' } } },
    check: (s, t) => {
      t.equal(podEcho(s).legacySharedCgroups, true);
      t.strictSame(podEcho(s).secrets, { s1: { source: '/path' } });
    },
  },
];

for (const c of defaultCases) {
  t.test(`default: ${c.name}`, async (t) => {
    c.check(convertPod(makePodJson(c.pod, c.container), { ...CTX, defaultNetworkName: 'dcos' }), t);
  });
}

const HEALTH_TIMING = { gracePeriodSeconds: 300, intervalSeconds: 60, timeoutSeconds: 20, maxConsecutiveFailures: 3, delaySeconds: 2 };

interface CheckCase {
  readonly name: string;
  readonly healthCheck: Record<string, unknown>;
  readonly spec: Record<string, unknown>;
  readonly wire: Record<string, unknown>;
}

const checkCases: readonly CheckCase[] = [
  {
    name: 'http → MESOS_HTTP with path / and scheme HTTP',
    healthCheck: { http: { endpoint: 'web' } },
    spec: { protocol: 'MESOS_HTTP', endpoint: 'web', path: '/' },
    wire: { http: { endpoint: 'web', path: '/', scheme: 'HTTP' }, ...HEALTH_TIMING },
  },
  {
    name: 'http with scheme https → MESOS_HTTPS',
    healthCheck: { http: { endpoint: 'web', path: '/ping', scheme: 'https' }, delaySeconds: 5 },
    spec: { protocol: 'MESOS_HTTPS', endpoint: 'web', path: '/ping', delayMs: 5000 },
    wire: { http: { endpoint: 'web', path: '/ping', scheme: 'HTTPS' }, ...HEALTH_TIMING, delaySeconds: 5 },
  },
  {
    name: 'tcp → MESOS_TCP',
    healthCheck: { tcp: { endpoint: 'web' }, maxConsecutiveFailures: 0 },
    spec: { protocol: 'MESOS_TCP', endpoint: 'web', maxConsecutiveFailures: 0 },
    wire: { tcp: { endpoint: 'web' }, ...HEALTH_TIMING, maxConsecutiveFailures: 0 },
  },
  {
    name: 'exec → COMMAND',
    healthCheck: { exec: { command: { shell: 'true' } } },
    spec: { protocol: 'COMMAND', command: 'true' },
    wire: { exec: { command: { shell: 'true' } }, ...HEALTH_TIMING },
  },
];

for (const c of checkCases) {
  t.test(`health check: ${c.name}`, async (t) => {
    const spec = convertPod(makePodJson({}, { endpoints: [{ name: 'web' }], healthCheck: c.healthCheck }));
    const check = spec.containers[0].healthCheck;
    t.ok(check);
    t.match(check, { gracePeriodMs: 300_000, intervalMs: 60_000, timeoutMs: 20_000, ignoreHttp1xx: false, ...c.spec });
    t.strictSame(containerDef(spec).healthCheck, c.wire);
  });
}

t.test('resident pods (persistent volumes) get {0.5, 0} and unreachable disabled', async (t) => {
  const spec = convertPod(makePodJson({
    id: '/dev/db',
    role: 'dev',
    volumes: [{ name: 'data', persistent: { size: 10, type: 'root' } }],
  }, { volumeMounts: [{ name: 'data', mountPath: '/data' }] }));
  t.equal(spec.resident, true);
  t.strictSame(spec.upgrade, { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 });
  t.strictSame(spec.unreachable, { kind: 'disabled' });
  t.match(schedulingDef(spec), {
    upgrade: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 },
    unreachableStrategy: 'disabled',
  });
});

t.test('pod roles follow the app rules', async (t) => {
  t.equal(convertPod(makePodJson({ id: '/dev/p', role: 'dev' })).role, 'dev');
  t.equal(convertPod(makePodJson({ id: '/dev/p' }), { ...CTX, enforcedGroupRole: 'dev' }).role, 'dev');
  t.strictSame(podErrors(makePodJson({ id: '/dev/p', role: 'x' })), [
    { path: '/role', errors: ['got x, expected one of: [*, dev]'] },
  ]);
  t.strictSame(podErrors(makePodJson({ id: '/dev/p', role: '*' }), { ...CTX, enforcedGroupRole: 'dev' }), [
    { path: '/role', errors: ['got *, expected one of: [dev]'] },
  ]);
});

t.test('pod kill grace: each container\'s lifecycle.killGracePeriodSeconds, default 3 s', async (t) => {
  const two = convertPod(makePodJson({
    containers: [
      makeContainerJson({ name: 'a', lifecycle: { killGracePeriodSeconds: 10 } }),
      makeContainerJson({ name: 'b' }),
    ],
  }));
  t.equal(gracePeriodMs(two, 'a'), 10_000);
  t.equal(gracePeriodMs(two, 'b'), 3000);
  const short = convertPod(makePodJson({}, { lifecycle: { killGracePeriodSeconds: 0 } }));
  t.equal(gracePeriodMs(short, 'c'), 0);
  t.equal(gracePeriodMs(undefined, 'c'), 3000);
});

interface ErrorCase {
  readonly name: string;
  readonly pod?: Record<string, unknown>;
  readonly container?: Record<string, unknown>;
  readonly path: string;
  readonly message: string;
}

const PERSISTENT_VOLUMES = [{ name: 'data', persistent: { size: 1 } }];
/** A container mounting PERSISTENT_VOLUMES (Marathon refuses a volume no container mounts). */
const MOUNTS_DATA = { volumeMounts: [{ name: 'data', mountPath: '/data' }] };

const errorCases: readonly ErrorCase[] = [
  { name: 'id missing', pod: { id: undefined }, path: '/id', message: 'error.path.missing' },
  { name: 'bad id', pod: { id: '/P' }, path: '/id', message: 'error.pattern' },
  { name: 'containers missing', pod: { containers: undefined }, path: '/containers', message: 'error.path.missing' },
  { name: 'no containers (facts 80)', pod: { containers: [] }, path: '/containers', message: 'error.minLength' },
  {
    name: 'duplicate container names (facts 80)',
    pod: { containers: [makeContainerJson(), makeContainerJson()] },
    path: '/containers',
    message: 'container names must be unique',
  },
  {
    name: 'pod environment references an undeclared secret',
    pod: { environment: { DB: { secret: 'nope' } } },
    path: '/environment/DB/secret',
    message: "references an undefined secret named 'nope'",
  },
  {
    name: 'container environment references a secret the pod does not declare',
    pod: { secrets: { s1: { source: '/s1' } } },
    container: { environment: { DB: { secret: 's2' } } },
    path: '/containers/0/environment/DB/secret',
    message: "references an undefined secret named 's2'",
  },
  { name: 'container name missing', container: { name: undefined }, path: '/containers/0/name', message: 'error.path.missing' },
  { name: 'container name with upper case', container: { name: 'Web' }, path: '/containers/0/name', message: 'error.pattern' },
  { name: 'container resources missing', container: { resources: undefined }, path: '/containers/0/resources', message: 'error.path.missing' },
  { name: 'negative container cpus', container: { resources: { cpus: -1 } }, path: '/containers/0/resources/cpus', message: 'error.min' },
  { name: 'scaling kind other than fixed', pod: { scaling: { kind: 'elastic' } }, path: '/scaling/kind', message: 'only fixed scaling is supported' },
  {
    name: 'maxInstances below instances',
    pod: { scaling: { instances: 3, maxInstances: 2 } },
    path: '/scaling/maxInstances',
    message: 'maxInstances must be greater than or equal to instances',
  },
  {
    name: 'volume mount of an undeclared volume',
    container: { volumeMounts: [{ name: 'nope', mountPath: '/x' }] },
    path: '/containers/0/volumeMounts/0/name',
    message: 'volume mount "nope" does not name a volume declared by the pod',
  },
  {
    name: 'duplicate volume names',
    pod: { volumes: [{ name: 'v' }, { name: 'v' }] },
    container: { volumeMounts: [{ name: 'v', mountPath: '/v' }] },
    path: '/volumes/1/name',
    message: 'volume names must be unique',
  },
  {
    name: 'duplicate endpoint names across containers',
    pod: {
      containers: [
        makeContainerJson({ name: 'a', endpoints: [{ name: 'web' }] }),
        makeContainerJson({ name: 'b', endpoints: [{ name: 'web' }] }),
      ],
    },
    path: '/containers/1/endpoints/0/name',
    message: 'endpoint names must be unique across all containers of a pod',
  },
  {
    name: 'health check endpoint not declared',
    container: { endpoints: [{ name: 'web' }], healthCheck: { http: { endpoint: 'admin' } } },
    path: '/containers/0/healthCheck/http/endpoint',
    message: 'health check endpoint "admin" is not an endpoint of this container',
  },
  {
    name: 'health check with two kinds',
    container: { endpoints: [{ name: 'web' }], healthCheck: { http: { endpoint: 'web' }, tcp: { endpoint: 'web' } } },
    path: '/containers/0/healthCheck',
    message: 'a health check must specify exactly one of http, tcp or exec',
  },
  {
    name: 'exec health check without shell',
    container: { healthCheck: { exec: { command: {} } } },
    path: '/containers/0/healthCheck/exec/command/shell',
    message: 'error.path.missing',
  },
  {
    name: 'pod environment name not capitalized',
    pod: { environment: { lower: 'x' } },
    path: '/environment/lower',
    message: 'environment variable names must be capitalized: upper-case letters, digits and _, not starting with a digit',
  },
  {
    name: 'container environment name starting with a digit',
    container: { environment: { '1A': 'x' } },
    path: '/containers/0/environment/1A',
    message: 'environment variable names must be capitalized: upper-case letters, digits and _, not starting with a digit',
  },
  {
    name: 'container network without name and no default network name',
    pod: { networks: [{ mode: 'container' }] },
    path: '/networks/0/name',
    message: 'networks of mode container must have a name when no default network name is configured',
  },
  {
    name: 'unknown network mode',
    pod: { networks: [{ mode: 'bridge' }] },
    path: '/networks/0/mode',
    message: 'mode must be one of host, container',
  },
  {
    name: 'container-mode endpoint without containerPort',
    pod: { networks: [{ mode: 'container', name: 'n' }] },
    container: { endpoints: [{ name: 'web' }] },
    path: '/containers/0/endpoints/0/containerPort',
    message: 'containerPort is required when the network mode is container',
  },
  {
    name: 'upgrade value above 1',
    pod: { scheduling: { upgrade: { minimumHealthCapacity: 2 } } },
    path: '/scheduling/upgrade/minimumHealthCapacity',
    message: 'error.max',
  },
  {
    name: 'unknown constraint operator',
    pod: { scheduling: { placement: { constraints: [{ fieldName: 'hostname', operator: 'NEAR' }] } } },
    path: '/scheduling/placement/constraints/0/operator',
    message: 'operator must be one of the following UNIQUE, CLUSTER, GROUP_BY, LIKE, MAX_PER, UNLIKE or IS',
  },
  {
    name: 'role not allowed',
    pod: { role: 'foo' },
    path: '/role',
    message: 'got foo, expected one of: [*]',
  },
  {
    name: 'accepted roles outside {*, role}',
    pod: { scheduling: { placement: { acceptedResourceRoles: ['foo'] } } },
    path: '/scheduling/placement/acceptedResourceRoles',
    message: 'acceptedResourceRoles can only contain *',
  },
  {
    name: 'resident pod with role *',
    pod: { volumes: PERSISTENT_VOLUMES },
    container: MOUNTS_DATA,
    path: '/role',
    message: 'Resident pods cannot have the role *',
  },
  {
    name: 'resident pod with an enabled unreachable strategy (facts 79)',
    pod: { id: '/dev/p', role: 'dev', volumes: PERSISTENT_VOLUMES, scheduling: { unreachableStrategy: { inactiveAfterSeconds: 1, expungeAfterSeconds: 2 } } },
    container: MOUNTS_DATA,
    path: '/scheduling/unreachableStrategy',
    message: 'unreachableStrategy must be disabled for pods with persistent volumes',
  },
];

for (const c of errorCases) {
  t.test(`error: ${c.name}`, async (t) => {
    t.strictSame(podErrors(makePodJson(c.pod, c.container)), [{ path: c.path, errors: [c.message] }]);
  });
}

t.test('not an object', async (t) => {
  t.strictSame(podFromWire('pod', CTX), { ok: false, errors: [{ path: '/', errors: ['error.expected.jsobject'] }] });
});
