import t from 'tap';
import { launchesToMesos, launchToMesos } from '../../../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import type { Offer as MesosOffer, OfferOperation, TaskInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import { makeApp, makeHealthCheck, makePortMapping } from '../../../builders/run-spec-builders';
import { coreAppLaunch, coreLaunches, makeMesosOffer, portsOf, portsResource, resourceSet, scalarResource, sumMilli } from './mesos-builders';

/** The single TaskInfo of a LAUNCH of `spec` on `mesosOffer`. */
function launchApp(spec: AppSpec, mesosOffer: MesosOffer = makeMesosOffer()): { info: TaskInfo; op: OfferOperation; hostPorts: readonly number[] } {
  const launch = coreAppLaunch(offerFromMesos(mesosOffer), spec);
  const op = launchToMesos(launch, { frameworkId: 'F1', offer: mesosOffer });
  const info = op.launch?.taskInfos?.[0];
  if (info === undefined) throw new Error('no task info');
  return { info, op, hostPorts: launch.task.hostPorts };
}

function envOf(info: TaskInfo): Record<string, string | undefined> {
  return Object.fromEntries((info.command?.environment?.variables ?? []).map((v) => [v.name, v.value]));
}

t.test('a LAUNCH with one command TaskInfo: ids, name, resources copied from the offer', async (t) => {
  const spec = makeApp({ id: '/prod/web', cpus: 0.5, mem: 256, disk: 10, hostPorts: [0, 0], cmd: 'exec ./server --port $PORT0' });
  const { op, info, hostPorts } = launchApp(spec, makeMesosOffer({ allocationRole: 'web' }));
  t.equal(op.type, 'LAUNCH');
  t.equal(op.launch?.taskInfos?.length, 1);
  t.equal(info.name, 'web.prod', 'the name reads like a host name');
  t.equal(info.taskId.value, 'prod_web.instance-1._app.1');
  t.equal(info.agentId.value, 'S1');
  t.same(info.resources, [
    { name: 'cpus', type: 'SCALAR', scalar: { value: 0.5 }, role: '*', allocationInfo: { role: 'web' } },
    { name: 'mem', type: 'SCALAR', scalar: { value: 256 }, role: '*', allocationInfo: { role: 'web' } },
    { name: 'disk', type: 'SCALAR', scalar: { value: 10 }, role: '*', allocationInfo: { role: 'web' } },
    { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 31000, end: 31001 }] }, role: '*', allocationInfo: { role: 'web' } },
  ]);
  t.same(hostPorts, [31000, 31001]);
  t.equal(info.executor, undefined, 'the command executor: no executor');
  t.equal(info.container, undefined, 'host networking without image: no container');
});

t.test('reserved resources keep their reservation exactly as offered, in both formats', async (t) => {
  const cases = [
    {
      name: 'pre-refinement static reservation first, then unreserved',
      resources: [
        scalarResource('cpus', 1, { role: 'web', allocationRole: 'web' }),
        ...resourceSet({ cpus: 4, mem: 4096, ports: [[31000, 31010]] }, { role: '*', allocationRole: 'web' }),
        portsResource([[20000, 20000]], { role: 'web', allocationRole: 'web' }),
      ],
      want: [
        { name: 'cpus', type: 'SCALAR', scalar: { value: 1 }, role: 'web', allocationInfo: { role: 'web' } },
        { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 20000, end: 20000 }] }, role: 'web', allocationInfo: { role: 'web' } },
        { name: 'cpus', type: 'SCALAR', scalar: { value: 0.5 }, role: '*', allocationInfo: { role: 'web' } },
        { name: 'mem', type: 'SCALAR', scalar: { value: 64 }, role: '*', allocationInfo: { role: 'web' } },
        { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 31000, end: 31000 }] }, role: '*', allocationInfo: { role: 'web' } },
      ],
    },
    {
      name: 'post-refinement stacks copied, no role added; one role pool split over two offered resources',
      resources: [
        scalarResource('cpus', 0.4, { reservations: [{ type: 'STATIC', role: 'web' }], allocationRole: 'web' }),
        scalarResource('cpus', 2, { reservations: [{ type: 'STATIC', role: 'web' }], allocationRole: 'web' }),
        scalarResource('mem', 1024, { reservations: [{ type: 'STATIC', role: 'web' }], allocationRole: 'web' }),
        portsResource([[20000, 20005]], { reservations: [{ type: 'STATIC', role: 'web' }], allocationRole: 'web' }),
      ],
      want: [
        { name: 'cpus', type: 'SCALAR', scalar: { value: 0.4 }, reservations: [{ type: 'STATIC', role: 'web' }], allocationInfo: { role: 'web' } },
        { name: 'cpus', type: 'SCALAR', scalar: { value: 1.1 }, reservations: [{ type: 'STATIC', role: 'web' }], allocationInfo: { role: 'web' } },
        { name: 'mem', type: 'SCALAR', scalar: { value: 64 }, reservations: [{ type: 'STATIC', role: 'web' }], allocationInfo: { role: 'web' } },
        { name: 'ports', type: 'RANGES', ranges: { range: [{ begin: 20000, end: 20001 }] }, reservations: [{ type: 'STATIC', role: 'web' }], allocationInfo: { role: 'web' } },
      ],
    },
  ];
  const spec = makeApp({ id: '/web', role: 'web', cpus: 1.5, mem: 64, hostPorts: [0, 0] });
  for (const c of cases) {
    const { info } = launchApp(c.name.startsWith('pre') ? { ...spec, hostPorts: [20000, 0] } : spec, makeMesosOffer({ allocationRole: 'web', resources: c.resources }));
    t.strictSame(info.resources, c.want, c.name);
  }
});

t.test('resources without allocation_info get the offer\'s', async (t) => {
  const offer = makeMesosOffer({ resources: resourceSet({ cpus: 2, mem: 256 }), allocationRole: 'apps' });
  const { info } = launchApp(makeApp({ role: 'apps', cpus: 1, mem: 128 }), offer);
  t.same(info.resources?.map((r) => r.allocationInfo), [{ role: 'apps' }, { role: 'apps' }]);
});

t.test('commands: cmd through the shell, args as argv, image entrypoints', async (t) => {
  const cases = [
    { name: 'cmd', spec: makeApp({ cmd: 'echo "$PORT0"' }), want: { shell: true, value: 'echo "$PORT0"' } },
    { name: 'args without image', spec: makeApp({ cmd: undefined, args: ['/bin/echo', 'a b'] }), want: { shell: false, value: '/bin/echo', arguments: ['/bin/echo', 'a b'] } },
    {
      name: 'args with an image',
      spec: makeApp({ cmd: undefined, args: ['--port', '80'], container: { type: 'DOCKER', docker: { image: 'nginx:1.25' }, portMappings: [] } }),
      want: { shell: false, arguments: ['--port', '80'] },
    },
    { name: 'image only', spec: makeApp({ cmd: undefined, container: { type: 'MESOS', docker: { image: 'busybox' }, portMappings: [] } }), want: { shell: false } },
  ];
  for (const c of cases) {
    const { environment: _env, ...command } = launchApp(c.spec).info.command ?? {};
    t.strictSame(command, c.want, c.name);
  }
});

t.test('command extras: fetch URIs and the user', async (t) => {
  const spec = makeApp({
    user: 'nobody',
    fetch: [{ uri: 'https://example.invalid/app.tgz', extract: true, executable: false, cache: true, destPath: 'app.tgz' }, { uri: 'https://example.invalid/run.sh' }],
  });
  const command = launchApp(spec).info.command;
  t.equal(command?.user, 'nobody');
  t.strictSame(command?.uris, [
    { value: 'https://example.invalid/app.tgz', executable: false, extract: true, cache: true, outputFile: 'app.tgz' },
    { value: 'https://example.invalid/run.sh' },
  ]);
});

t.test('environment: Marathon\'s task variables, the app\'s env over them, nothing Mesos sets itself', async (t) => {
  const spec = makeApp({
    id: '/prod/web', hostPorts: [0, 0], labels: { team: 'a' }, cpus: 0.5,
    env: { HOST: 'mine', PATH: '/opt/bin', GREETING: 'hi' },
  });
  const { info, hostPorts } = launchApp(spec);
  const env = envOf(info);
  t.match(env, {
    PORT0: String(hostPorts[0]), PORT1: String(hostPorts[1]), PORT: String(hostPorts[0]), PORTS: hostPorts.join(','),
    PORT_PORT0: String(hostPorts[0]),
    MARATHON_APP_ID: '/prod/web', MARATHON_APP_VERSION: spec.version, MARATHON_APP_RESOURCE_CPUS: '0.5',
    MARATHON_APP_LABELS: 'team', MARATHON_APP_LABEL_TEAM: 'a',
    HOST: 'mine', PATH: '/opt/bin', GREETING: 'hi',
  });
  for (const name of ['MESOS_TASK_ID', 'MESOS_SANDBOX', 'HOME', 'TMPDIR']) t.notOk(name in env, `${name} is not sent`);
  const names = (info.command?.environment?.variables ?? []).map((v) => v.name);
  t.strictSame(names, [...names].sort(), 'variables sorted by name');
  t.equal(envOf(launchApp(makeApp()).info).HOST, 'agent-1.example', 'HOST is the agent host name');
  t.notOk('PATH' in envOf(launchApp(makeApp()).info), 'pacer\'s PATH is not sent');
});

t.test('labels, discovery and kill policy', async (t) => {
  const spec = makeApp({
    id: '/web', hostPorts: [0, 0], labels: { a: '1', b: '2' }, killGracePeriodMs: 30_000,
    portDefinitions: [{ port: 0, name: 'http', protocol: 'tcp', labels: { VIP_0: '/web:80' } }, { port: 0, name: 'dns', protocol: 'udp,tcp', labels: {} }],
  });
  const { info, hostPorts } = launchApp(spec);
  t.strictSame(info.labels, { labels: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
  t.strictSame(info.killPolicy, { gracePeriod: { nanoseconds: 30_000_000_000 } });
  t.strictSame(info.discovery, {
    visibility: 'FRAMEWORK',
    name: 'web',
    ports: {
      ports: [
        { number: hostPorts[0], name: 'http', protocol: 'tcp', labels: { labels: [{ key: 'VIP_0', value: '/web:80' }] } },
        { number: hostPorts[1], name: 'dns', protocol: 'udp' },
        { number: hostPorts[1], name: 'dns', protocol: 'tcp' },
      ],
    },
  });
  const bare = launchApp(makeApp({ killGracePeriodMs: 3000 })).info;
  t.equal(bare.labels, undefined, 'no labels field without labels');
  t.strictSame(bare.discovery, { visibility: 'FRAMEWORK', name: 'app' }, 'no ports field without ports');
  t.strictSame(bare.killPolicy, { gracePeriod: { nanoseconds: 3_000_000_000 } }, 'the default grace is stated');
});

t.test('health checks: agent-run checks become the TaskInfo\'s, scheduler-run ones do not', async (t) => {
  const timing = { gracePeriodMs: 300_000, intervalMs: 60_000, timeoutMs: 20_000, delayMs: 15_000 };
  const seconds = { gracePeriodSeconds: 300, intervalSeconds: 60, timeoutSeconds: 20, delaySeconds: 15 };
  const cases = [
    { name: 'MESOS_HTTP', check: makeHealthCheck({ protocol: 'MESOS_HTTP', path: '/health', ...timing }), want: (p: number) => ({ ...seconds, consecutiveFailures: 3, type: 'HTTP', http: { port: p, path: '/health', scheme: 'http' } }) },
    { name: 'MESOS_HTTPS', check: makeHealthCheck({ protocol: 'MESOS_HTTPS', ...timing }), want: (p: number) => ({ ...seconds, consecutiveFailures: 3, type: 'HTTP', http: { port: p, path: '/', scheme: 'https' } }) },
    { name: 'MESOS_TCP on IPv6', check: makeHealthCheck({ protocol: 'MESOS_TCP', ...timing, ipProtocol: 'IPv6' }), want: (p: number) => ({ ...seconds, consecutiveFailures: 3, type: 'TCP', tcp: { port: p, protocol: 'IPv6' } }) },
    { name: 'COMMAND', check: makeHealthCheck({ protocol: 'COMMAND', command: 'test -f /tmp/ok', ...timing }), want: () => ({ ...seconds, consecutiveFailures: 3, type: 'COMMAND', command: { shell: true, value: 'test -f /tmp/ok' } }) },
    {
      name: 'maxConsecutiveFailures 0 keeps Mesos\'s meaning: kill at the first failure',
      check: makeHealthCheck({ protocol: 'MESOS_TCP', maxConsecutiveFailures: 0, gracePeriodMs: 0, intervalMs: 1000, timeoutMs: 500, delayMs: 0 }),
      want: (p: number) => ({ gracePeriodSeconds: 0, intervalSeconds: 1, timeoutSeconds: 0.5, delaySeconds: 0, consecutiveFailures: 0, type: 'TCP', tcp: { port: p } }),
    },
    { name: 'a fixed port wins', check: makeHealthCheck({ protocol: 'MESOS_TCP', port: 8080, ...timing }), want: () => ({ ...seconds, consecutiveFailures: 3, type: 'TCP', tcp: { port: 8080 } }) },
    { name: 'scheduler-run HTTP is not sent', check: makeHealthCheck({ protocol: 'HTTP' }), want: () => undefined },
  ];
  for (const c of cases) {
    const { info, hostPorts } = launchApp(makeApp({ hostPorts: [0], healthChecks: [c.check] }));
    t.strictSame(info.healthCheck, c.want(hostPorts[0]), c.name);
  }
});

t.test('containers: Docker and Mesos containerizers, networks and port mappings', async (t) => {
  const bridgeDocker = makeApp({
    networks: [{ mode: 'container/bridge', labels: {} }],
    container: {
      type: 'DOCKER', docker: { image: 'nginx:1.25', privileged: true, forcePullImage: true, parameters: [{ key: 'label', value: 'x' }] },
      portMappings: [makePortMapping({ containerPort: 80, hostPort: 0, name: 'http' }), makePortMapping({ hostPort: 0 }), makePortMapping({ containerPort: 9000 })],
      volumes: [
        { kind: 'host', containerPath: '/data', hostPath: '/srv/data', mode: 'RO' },
        { kind: 'persistent', containerPath: 'pv', persistent: { size: 10, constraints: [] }, mode: 'RW' },
      ],
    },
  });
  const docker = launchApp(bridgeDocker);
  const [p0, p1] = docker.hostPorts;
  t.strictSame(docker.info.container, {
    type: 'DOCKER',
    docker: {
      image: 'nginx:1.25', network: 'BRIDGE', privileged: true, forcePullImage: true, parameters: [{ key: 'label', value: 'x' }],
      portMappings: [{ hostPort: p0, containerPort: 80, protocol: 'tcp' }, { hostPort: p1, containerPort: p1, protocol: 'tcp' }],
    },
    volumes: [{ containerPath: '/data', hostPath: '/srv/data', mode: 'RO' }],
  }, 'docker bridge: mappings with host ports; persistent volumes left out');
  t.strictSame(docker.info.discovery?.ports?.ports?.map((p) => p.number), [p0, p1, 9000], 'discovery lists host ports, and container ports without one');

  const ucr = makeApp({
    healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP', portIndex: 0 })],
    networks: [{ mode: 'container', name: 'dcos', labels: { k: 'v' } }, { mode: 'container', name: 'other', labels: {} }],
    container: { type: 'MESOS', docker: { image: 'busybox', forcePullImage: true }, portMappings: [makePortMapping({ containerPort: 8080, hostPort: 0 })] },
  });
  const mesos = launchApp(ucr);
  t.strictSame(mesos.info.container, {
    type: 'MESOS',
    mesos: { image: { type: 'DOCKER', docker: { name: 'busybox' }, cached: false } },
    networkInfos: [
      { name: 'dcos', labels: { labels: [{ key: 'k', value: 'v' }] }, portMappings: [{ hostPort: mesos.hostPorts[0], containerPort: 8080, protocol: 'tcp' }] },
      { name: 'other' },
    ],
  });
  t.equal(mesos.info.healthCheck?.http?.port, 8080, 'Mesos probes the container port inside the task\'s namespace');

  const userDocker = makeApp({ networks: [{ mode: 'container', name: 'overlay', labels: {} }], container: { type: 'DOCKER', docker: { image: 'redis' }, portMappings: [] } });
  t.strictSame(launchApp(userDocker).info.container, { type: 'DOCKER', docker: { image: 'redis', network: 'USER' }, networkInfos: [{ name: 'overlay' }] });

  const bridgeMesos = makeApp({ networks: [{ mode: 'container/bridge', labels: {} }], container: { type: 'MESOS', portMappings: [makePortMapping({ containerPort: 80, hostPort: 0 })] } });
  const bridged = launchApp(bridgeMesos);
  t.strictSame(bridged.info.container, { type: 'MESOS', networkInfos: [{ name: 'mesos-bridge', portMappings: [{ hostPort: bridged.hostPorts[0], containerPort: 80, protocol: 'tcp' }] }] });
});

t.test('several operations of one ACCEPT share the offer without overlap', async (t) => {
  const mesosOffer = makeMesosOffer({ resources: resourceSet({ cpus: 1, mem: 256, ports: [[31000, 31001], [31005, 31005]] }, { role: '*', allocationRole: '*' }) });
  const specs = [makeApp({ id: '/a', cpus: 0.5, mem: 128, hostPorts: [0, 0] }), makeApp({ id: '/b', cpus: 0.5, mem: 128, hostPorts: [0] })];
  const ops = launchesToMesos(coreLaunches(offerFromMesos(mesosOffer), specs), { frameworkId: 'F1', offer: mesosOffer });
  const infos = ops.map((op) => op.launch?.taskInfos?.[0]);
  t.strictSame(infos.map((i) => portsOf(i?.resources)), [[31000, 31001], [31005]]);
  t.strictSame(infos.map((i) => sumMilli(i?.resources, 'cpus')), [500, 500]);
  t.strictSame(infos[0]?.resources?.find((r) => r.name === 'ports')?.ranges, { range: [{ begin: 31000, end: 31001 }] }, 'adjacent ports merged into one range');
  const twice = coreLaunches(offerFromMesos(mesosOffer), [specs[0]]);
  t.throws(() => launchesToMesos([twice[0], twice[0], twice[0]], { frameworkId: 'F1', offer: mesosOffer }), /does not fit the offer/, 'more than offered is a bug, not a launch');
});
