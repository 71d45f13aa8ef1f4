import t from 'tap';
import { launchToMesos } from '../../../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import type { Offer as MesosOffer, OfferOperation, TaskInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import type { LaunchOperation } from '../../../../src/scheduler/model/launch';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import { makeEndpoint, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { corePodLaunch, makeMesosOffer, portsOf, resourceSet, scalarResource, sumMilli } from './mesos-builders';

interface PodLaunched {
  readonly op: OfferOperation;
  readonly core: Extract<LaunchOperation, { kind: 'launchGroup' }>;
  readonly tasks: readonly TaskInfo[];
}

function launchPod(spec: PodSpec, mesosOffer: MesosOffer = makeMesosOffer()): PodLaunched {
  const core = corePodLaunch(offerFromMesos(mesosOffer), spec);
  const op = launchToMesos(core, { frameworkId: 'F1', offer: mesosOffer });
  return { op, core, tasks: op.launchGroup?.taskGroup.tasks ?? [] };
}

function envOf(info: TaskInfo | undefined): Record<string, string | undefined> {
  return Object.fromEntries((info?.command?.environment?.variables ?? []).map((v) => [v.name, v.value]));
}

const twoContainers = makePod({
  id: '/shop/cart',
  labels: { tier: 'backend' },
  containers: [
    { name: 'app', cpus: 1, mem: 512, disk: 5, command: './run-app', endpoints: [makeEndpoint({ name: 'http', hostPort: 0, protocol: ['http'] })], killGracePeriodMs: 20_000 },
    { name: 'sidecar', cpus: 0.1, mem: 64, command: './run-sidecar', env: { MODE: 'proxy' } },
  ],
});

t.test('a LAUNCH_GROUP: a DEFAULT executor with framework id and overhead, one task per container', async (t) => {
  const { op, core, tasks } = launchPod(twoContainers, makeMesosOffer({ allocationRole: 'apps' }));
  t.equal(op.type, 'LAUNCH_GROUP');
  const executor = op.launchGroup?.executor;
  t.equal(executor?.type, 'DEFAULT');
  t.strictSame(executor?.executorId, { value: core.executorId });
  t.strictSame(executor?.frameworkId, { value: 'F1' }, 'the master does not fill it for LAUNCH_GROUP');
  t.strictSame(executor?.resources, [
    { name: 'cpus', type: 'SCALAR', scalar: { value: 0.1 }, role: '*', allocationInfo: { role: 'apps' } },
    { name: 'mem', type: 'SCALAR', scalar: { value: 32 }, role: '*', allocationInfo: { role: 'apps' } },
    { name: 'disk', type: 'SCALAR', scalar: { value: 10 }, role: '*', allocationInfo: { role: 'apps' } },
  ], 'executor resources: the pod default 0.1 cpus, 32 MiB, 10 MiB disk');
  t.strictSame(executor?.labels, { labels: [{ key: 'tier', value: 'backend' }] });
  t.equal(executor?.command, undefined, 'a DEFAULT executor has no command');
  t.equal(executor?.container, undefined, 'host networking: no executor container');
  t.strictSame(tasks.map((task) => task.name), ['app', 'sidecar']);
  t.strictSame(tasks.map((task) => task.taskId.value), core.tasks.map((task) => task.taskId));
  t.strictSame(tasks.map((task) => task.agentId.value), ['S1', 'S1']);
  t.strictSame(tasks.map((task) => task.executor), [undefined, undefined], 'the master copies the group executor in');
  t.strictSame(tasks.map((task) => [sumMilli(task.resources, 'cpus'), sumMilli(task.resources, 'mem'), sumMilli(task.resources, 'disk')]), [[1000, 512_000, 5000], [100, 64_000, 0]]);
  t.strictSame(portsOf(tasks[0].resources), core.tasks[0].hostPorts, 'the endpoint\'s host port goes with its task');
  t.strictSame(portsOf(tasks[1].resources), []);
  t.strictSame(tasks.map((task) => task.command?.shell), [true, true]);
  t.strictSame(tasks.map((task) => task.command?.value), ['./run-app', './run-sidecar']);
  t.strictSame(tasks.map((task) => task.killPolicy?.gracePeriod?.nanoseconds), [20_000_000_000, 3_000_000_000], 'per-container kill grace, 3 s by default');
  t.strictSame(tasks[0].discovery, { visibility: 'FRAMEWORK', name: 'cart.shop', ports: { ports: [{ number: core.tasks[0].hostPorts[0], name: 'http', protocol: 'http' }] } });
});

t.test('pod environment: endpoints of every container, container id and variables', async (t) => {
  const { core, tasks } = launchPod(twoContainers);
  const port = String(core.tasks[0].hostPorts[0]);
  const app = envOf(tasks[0]);
  const sidecar = envOf(tasks[1]);
  t.match(app, { ENDPOINT_HTTP: port, MARATHON_APP_ID: '/shop/cart', MARATHON_CONTAINER_ID: 'app', MARATHON_CONTAINER_RESOURCE_MEM: '512.0', HOST: 'agent-1.example' });
  t.match(sidecar, { ENDPOINT_HTTP: port, MARATHON_CONTAINER_ID: 'sidecar', MODE: 'proxy' });
  t.notOk('MODE' in app, 'a container\'s own variables stay in that container');
  for (const env of [app, sidecar]) t.notOk('MESOS_TASK_ID' in env || 'MESOS_SANDBOX' in env);
});

t.test('the allocation is split between executor and tasks, reserved pools first', async (t) => {
  const resources = [
    ...resourceSet({ cpus: 0.5, mem: 100, disk: 8 }, { role: 'shop', allocationRole: 'shop' }),
    ...resourceSet({ cpus: 4, mem: 4096, disk: 1000, ports: [[31000, 31010]] }, { role: '*', allocationRole: 'shop' }),
  ];
  const spec = makePod({ role: 'shop', containers: [{ name: 'a', cpus: 0.5, mem: 100, disk: 1, endpoints: [makeEndpoint({ name: 'e', hostPort: 0 })] }, { name: 'b', cpus: 0.2, mem: 16 }] });
  const { op, tasks } = launchPod(spec, makeMesosOffer({ resources, allocationRole: 'shop' }));
  const executor = op.launchGroup?.executor;
  const reserved = (r: { role?: string }): boolean => r.role === 'shop';
  t.strictSame(executor?.resources?.filter(reserved).map((r) => [r.name, r.scalar?.value]), [['cpus', 0.1], ['mem', 32], ['disk', 8]], 'the executor draws from the reservation first');
  t.strictSame(executor?.resources?.filter((r) => !reserved(r)).map((r) => [r.name, r.scalar?.value]), [['disk', 2]]);
  t.strictSame(tasks[0].resources?.filter(reserved).map((r) => [r.name, r.scalar?.value]), [['cpus', 0.4], ['mem', 68]]);
  const all = [...(executor?.resources ?? []), ...tasks.flatMap((task) => task.resources ?? [])];
  t.strictSame([sumMilli(all, 'cpus'), sumMilli(all, 'mem'), sumMilli(all, 'disk')], [800, 148_000, 11_000], 'executor + tasks = the pod instance');
  t.ok(all.every((r) => r.allocationInfo?.role === 'shop'));
  t.ok(all.filter(reserved).every((r) => r.reservation === undefined && r.role === 'shop'), 'the static reservation is copied as offered');
});

t.test('pod health checks: endpoint ports, Mesos meaning of consecutive failures', async (t) => {
  const check = makeHealthCheck({ protocol: 'MESOS_HTTP', endpoint: 'http', path: '/ping', gracePeriodMs: 300_000, intervalMs: 60_000, timeoutMs: 20_000, maxConsecutiveFailures: 0, delayMs: 2000 });
  const exec = makeHealthCheck({ protocol: 'COMMAND', command: 'true', delayMs: 2000 });
  const spec = makePod({
    containers: [
      { name: 'web', endpoints: [makeEndpoint({ name: 'http', hostPort: 0 })], healthCheck: check },
      { name: 'worker', healthCheck: exec },
    ],
  });
  const { core, tasks } = launchPod(spec);
  t.strictSame(tasks[0].healthCheck, {
    delaySeconds: 2, intervalSeconds: 60, timeoutSeconds: 20, consecutiveFailures: 0, gracePeriodSeconds: 300,
    type: 'HTTP', http: { port: core.tasks[0].hostPorts[0], path: '/ping', scheme: 'http' },
  });
  t.equal(tasks[1].healthCheck?.type, 'COMMAND');
  t.strictSame(tasks[1].healthCheck?.command, { shell: true, value: 'true' });
});

t.test('container networking: networks on the executor, port mappings, checks on container ports', async (t) => {
  const spec = makePod({
    networkMode: 'container',
    containers: [{
      name: 'web',
      endpoints: [makeEndpoint({ name: 'http', hostPort: 0, containerPort: 8080, protocol: ['http'] }), makeEndpoint({ name: 'dns', hostPort: 0, containerPort: 53, protocol: ['udp', 'tcp'] }), makeEndpoint({ name: 'admin', containerPort: 9000 })],
      healthCheck: makeHealthCheck({ protocol: 'MESOS_TCP', endpoint: 'http' }),
    }],
    networks: [{ mode: 'container', name: 'dcos', labels: { zone: 'a' } }],
  });
  const { op, core, tasks } = launchPod(spec);
  const [http, dns] = core.tasks[0].hostPorts;
  t.strictSame(op.launchGroup?.executor.container, {
    type: 'MESOS',
    networkInfos: [{
      name: 'dcos',
      labels: { labels: [{ key: 'zone', value: 'a' }] },
      portMappings: [
        { hostPort: http, containerPort: 8080, protocol: 'tcp' },
        { hostPort: dns, containerPort: 53, protocol: 'udp' },
        { hostPort: dns, containerPort: 53, protocol: 'tcp' },
      ],
    }],
  });
  t.equal(tasks[0].container, undefined, 'tasks of a group carry no networks');
  t.equal(tasks[0].healthCheck?.tcp?.port, 8080, 'probed on the container port inside the pod\'s namespace');
  t.strictSame(tasks[0].discovery?.ports?.ports?.map((p) => p.number), [http, dns, dns, 9000]);
});

t.test('pod containers: images, volumes, artifacts, user, image entrypoint', async (t) => {
  const spec = makePod({
    user: 'pod-user',
    volumes: [
      { kind: 'ephemeral', name: 'shared' }, { kind: 'host', name: 'logs', host: '/var/log/pods' }, { kind: 'host', name: 'scratch', host: 'tmp' },
      { kind: 'persistent', name: 'data', persistent: { size: 10, constraints: [] } },
    ],
    containers: [
      {
        name: 'web', command: undefined, image: { kind: 'DOCKER', id: 'nginx:1.25', forcePull: true, labels: {} }, user: 'www',
        artifacts: [{ uri: 'https://example.invalid/site.tgz', extract: true }],
        volumeMounts: [{ name: 'shared', mountPath: '/shared' }, { name: 'logs', mountPath: '/logs', readOnly: true }, { name: 'scratch', mountPath: '/tmp/s' }, { name: 'data', mountPath: '/data' }],
        labels: { c: 'web' },
      },
      { name: 'legacy', image: { kind: 'APPC', id: 'example.com/app:1', forcePull: false, labels: {} } },
    ],
  });
  const { tasks } = launchPod(spec);
  t.strictSame(tasks[0].container, {
    type: 'MESOS',
    mesos: { image: { type: 'DOCKER', docker: { name: 'nginx:1.25' }, cached: false } },
    volumes: [
      { containerPath: '/shared', mode: 'RW', source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'shared' } } },
      { containerPath: '/logs', mode: 'RO', source: { type: 'HOST_PATH', hostPath: { path: '/var/log/pods' } } },
      { containerPath: '/tmp/s', mode: 'RW', source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'tmp' } } },
      { containerPath: '/data', mode: 'RW', source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'data' } } },
    ],
  }, 'ephemeral and persistent volumes through the executor sandbox (a persistent volume is the executor\'s, at its name)');
  const { environment: _env, ...command } = tasks[0].command ?? {};
  t.strictSame(command, { uris: [{ value: 'https://example.invalid/site.tgz', extract: true }], user: 'www', shell: false }, 'no command: the image entrypoint');
  t.strictSame(tasks[0].labels, { labels: [{ key: 'c', value: 'web' }] });
  t.strictSame(tasks[1].container?.mesos?.image, { type: 'APPC', appc: { name: 'example.com/app:1' } });
  t.equal(tasks[1].command?.user, 'pod-user', 'the pod user when the container has none');
});

t.test('a group that does not fit its offer throws', async (t) => {
  const mesosOffer = makeMesosOffer({ resources: [scalarResource('cpus', 0.5, { role: '*' }), scalarResource('mem', 64, { role: '*' })] });
  const big = makePod({ containers: [{ name: 'a', cpus: 0.1, mem: 16 }] });
  const core = corePodLaunch(offerFromMesos(makeMesosOffer()), big);
  t.throws(() => launchToMesos(core, { frameworkId: 'F1', offer: mesosOffer }), /does not fit the offer/);
  t.throws(() => launchToMesos({ ...core, tasks: [] }, { frameworkId: 'F1', offer: mesosOffer }), /no pod tasks/);
});
