import t from 'tap';
import { podFromWire } from '../../../../src/marathon/convert/pod-from-wire';
import { podEcho } from './fixtures/builders';

const ctx = { defaultRole: '*', versionIso: '2026-01-01T00:00:00.000Z', defaultNetworkName: 'dcos' };

/** A pod using most of spec 2.1–2.6: volumes, networks, images, exec, artifacts, lifecycle, all check kinds. */
function richPod(): Record<string, unknown> {
  return {
    id: '/shop/cart',
    labels: { team: 'shop' },
    environment: { STAGE: 'prod' },
    volumes: [{ name: 'cache' }, { name: 'host-logs', host: '/var/log' }],
    networks: [{ mode: 'container', labels: { net: 'blue' } }],
    scaling: { kind: 'fixed', instances: 3, maxInstances: 5 },
    scheduling: {
      backoff: { backoff: 2, backoffFactor: 1.5, maxLaunchDelay: 600 },
      upgrade: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.25 },
      placement: { constraints: [['@zone', 'GROUP_BY', '3']], acceptedResourceRoles: ['*'] },
      killSelection: 'oldest_first',
      unreachableStrategy: { inactiveAfterSeconds: 60, expungeAfterSeconds: 600 },
    },
    executorResources: { cpus: 0.2, mem: 64, disk: 20 },
    containers: [
      {
        name: 'web',
        resources: { cpus: 0.5, mem: 256, disk: 10 },
        image: { kind: 'DOCKER', id: 'nginx:1.25', forcePull: true },
        exec: { command: { shell: 'nginx -g "daemon off;"' } },
        environment: { STAGE: 'canary', PORT: '8080' },
        endpoints: [{ name: 'http', containerPort: 8080, hostPort: 0, protocol: ['HTTP'] }, { name: 'admin', containerPort: 9090, protocol: ['tcp'] }],
        healthCheck: { http: { endpoint: 'http', path: '/health', scheme: 'HTTP' }, gracePeriodSeconds: 30, intervalSeconds: 5, maxConsecutiveFailures: 2, timeoutSeconds: 3, delaySeconds: 1 },
        volumeMounts: [{ name: 'cache', mountPath: '/cache' }, { name: 'host-logs', mountPath: '/logs', readOnly: true }],
        artifacts: [{ uri: 'https://example.invalid/app.tgz', extract: true, executable: false, cache: false, destPath: 'app' }],
        lifecycle: { killGracePeriodSeconds: 20 },
        labels: { part: 'front' },
      },
      {
        name: 'sidecar',
        resources: { cpus: 0.1, mem: 32 },
        exec: { command: { shell: 'sidecar' } },
        endpoints: [{ name: 'metrics', containerPort: 9100, hostPort: 9100 }],
        healthCheck: { tcp: { endpoint: 'metrics' } },
      },
      {
        name: 'cron',
        resources: { cpus: 0.1, mem: 32 },
        healthCheck: { exec: { command: { shell: 'test -f /tmp/ok' } } },
      },
    ],
  };
}

t.test('a rich pod converts with every rule of spec 2.1–2.6 applied', async (t) => {
  const r = podFromWire(richPod(), ctx);
  if (!r.ok) {
    t.fail(JSON.stringify(r.errors));
    return;
  }
  const spec = r.spec;
  t.equal(spec.instances, 3);
  t.equal(spec.networkMode, 'container');
  t.same(spec.executorResources, { cpusMilli: 200, memMilli: 64_000, diskMilli: 20_000, gpus: 0 });
  t.same(spec.backoff, { initialMs: 2000, factor: 1.5, maxMs: 600_000 });
  t.same(spec.upgrade, { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.25 });
  t.equal(spec.killSelection, 'OLDEST_FIRST', 'any case accepted, canonical form kept');
  t.same(spec.unreachable, { kind: 'enabled', inactiveAfterMs: 60_000, expungeAfterMs: 600_000 });
  t.same(spec.constraints, [{ field: '@zone', operator: 'GROUP_BY', value: '3' }]);
  const [web, sidecar, cron] = spec.containers;
  t.equal(web.killGracePeriodMs, 20_000);
  t.same(web.env, { STAGE: 'canary', PORT: '8080' }, 'container variables override the pod ones');
  t.same(web.endpoints.map((e) => [e.name, e.hostPort, e.containerPort, e.protocol]), [['http', 0, 8080, ['http']], ['admin', undefined, 9090, ['tcp']]]);
  t.match(web.healthCheck, { protocol: 'MESOS_HTTP', endpoint: 'http', path: '/health', gracePeriodMs: 30_000, intervalMs: 5000, timeoutMs: 3000, maxConsecutiveFailures: 2, delayMs: 1000 });
  t.match(sidecar.healthCheck, { protocol: 'MESOS_TCP', endpoint: 'metrics' });
  t.same(sidecar.endpoints.map((e) => e.hostPort), [9100]);
  t.match(cron.healthCheck, { protocol: 'COMMAND', command: 'test -f /tmp/ok', delayMs: 2000 });
  const def = podEcho(spec) as Record<string, unknown>;
  const containers = def.containers as Record<string, unknown>[];
  t.match(containers[0], { image: { kind: 'DOCKER', id: 'nginx:1.25', forcePull: true }, lifecycle: { killGracePeriodSeconds: 20 } });
  t.equal(containers[2].image, null, 'unset optional scalars echo as null');
  t.match(def.networks, [{ mode: 'container', name: 'dcos' }], 'the default network name fills a nameless container network');
});

t.test('rich pod errors: each broken rule is reported at its pointer', async (t) => {
  const cases: [string, (p: Record<string, unknown>) => void, string][] = [
    ['undeclared volume', (p) => { ((p.containers as Record<string, unknown>[])[0].volumeMounts as unknown[]).push({ name: 'nope', mountPath: '/x' }); }, '/containers/0/volumeMounts/2'],
    ['health check endpoint of another container', (p) => { (p.containers as Record<string, unknown>[])[1].healthCheck = { tcp: { endpoint: 'http' } }; }, '/containers/1/healthCheck'],
    ['lower-case env name', (p) => { p.environment = { stage: 'x' }; }, '/environment'],
    ['duplicate container name (reported on the list, as Marathon does)', (p) => { (p.containers as Record<string, unknown>[])[2].name = 'web'; }, '/containers'],
    ['scaling kind', (p) => { p.scaling = { kind: 'elastic', instances: 1 }; }, '/scaling/kind'],
    ['upgrade out of range', (p) => { (p.scheduling as Record<string, unknown>).upgrade = { minimumHealthCapacity: 2 }; }, '/scheduling/upgrade/minimumHealthCapacity'],
  ];
  for (const [name, breakIt, path] of cases) {
    const pod = richPod();
    breakIt(pod);
    const r = podFromWire(pod, ctx);
    t.equal(r.ok, false, name);
    if (!r.ok) t.ok(r.errors.some((e) => e.path.startsWith(path)), `${name}: error at ${path} (got ${r.errors.map((e) => e.path).join(', ')})`);
  }
});
