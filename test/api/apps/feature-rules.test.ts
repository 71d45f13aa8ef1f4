import t from 'tap';
import { makeApi } from '../api-fixture';
import { findRunSpec } from '../../../src/scheduler/index';
import { runSpecFromRecord, runSpecToRecord } from '../../../src/store/run-spec-record';

/*
 * Marathon's feature-gated app fields (AppValidation.validBasicAppDefinition, validContainer,
 * validVolume; Validation.featureEnabled): without `--enable_features gpu_resources` an app with
 * gpus above 0, without `secrets` its secrets, secret environment references, secret volumes and
 * a Mesos container's pullConfig, without `external_volumes` its external volumes are a 422 at
 * Marathon's paths, and nothing is stored; pacer answered 201. With the features the same bodies
 * are accepted (GPUs in a Docker container excepted, as in Marathon). A record stored while a
 * feature was on still loads without it: the rules are the API's, not the store's.
 */

const FEATURE = (f: string): string => `Feature ${f} is not enabled. Enable with --enable_features ${f})`;
const ALL = ['gpu_resources', 'secrets', 'external_volumes'];
const SECRETS = { s: { source: '/vault/s' } };
const DOCKER_GPU = 'GPU resources only work with the Mesos containerizer';

const app = (over: Record<string, unknown>) => ({ id: '/f/a', cmd: 'sleep 1000', cpus: 0.01, mem: 16, instances: 1, ...over });
const mesos = (over: Record<string, unknown>) => ({ type: 'MESOS', ...over });

interface Case {
  readonly name: string;
  readonly body: Record<string, unknown>;
  /** Marathon's details without the features. */
  readonly details: readonly { path: string; errors: string[] }[];
  /** Marathon's details with every feature on; absent: accepted. */
  readonly withFeatures?: readonly { path: string; errors: string[] }[];
}

const cases: readonly Case[] = [
  { name: 'gpus 1', body: app({ gpus: 1 }), details: [{ path: '/', errors: [FEATURE('gpu_resources')] }] },
  {
    name: 'gpus 1 in a Docker container',
    body: app({ gpus: 1, container: { type: 'DOCKER', docker: { image: 'busybox' } } }),
    details: [{ path: '/', errors: [DOCKER_GPU, FEATURE('gpu_resources')] }],
    withFeatures: [{ path: '/', errors: [DOCKER_GPU] }],
  },
  { name: 'secrets', body: app({ secrets: SECRETS }), details: [{ path: '/secrets', errors: [FEATURE('secrets')] }] },
  {
    name: 'a secret environment variable',
    body: app({ secrets: SECRETS, env: { PASSWORD: { secret: 's' } } }),
    details: [
      { path: '/secrets', errors: [FEATURE('secrets')] },
      { path: '/env', errors: ['use of secret-references in the environment requires the secrets feature to be enabled'] },
    ],
  },
  {
    name: 'a secret volume',
    body: app({ secrets: SECRETS, container: mesos({ volumes: [{ containerPath: 'pw', secret: 's' }] }) }),
    details: [
      { path: '/secrets', errors: [FEATURE('secrets')] },
      { path: '/container/secretVolumes(container)', errors: ['must be empty', FEATURE('secrets')] },
    ],
  },
  {
    name: 'a pullConfig of a Mesos container',
    body: app({ secrets: SECRETS, container: mesos({ docker: { image: 'busybox', pullConfig: { secret: 's' } } }) }),
    details: [
      { path: '/secrets', errors: [FEATURE('secrets')] },
      { path: '/container/docker/pullConfig', errors: ['must be empty', FEATURE('secrets')] },
    ],
  },
  {
    name: 'an external volume',
    body: app({
      container: mesos({ volumes: [
        { containerPath: '/h', hostPath: '/tmp' },
        { containerPath: 'ext', mode: 'RW', external: { name: 'v', provider: 'dvdi', options: { 'dvdi/driver': 'rexray' } } },
      ] }),
    }),
    details: [{ path: '/container/volumes(1)', errors: [FEATURE('external_volumes')] }],
  },
];

const routes = [['POST', '/v2/apps'], ['PUT', '/v2/apps/f/a'], ['PUT', '/v2/apps']] as const;

for (const c of cases) {
  t.test(`${c.name} without its feature is 422, nothing stored`, async (t) => {
    const fx = makeApi();
    t.teardown(() => fx.app.close());
    for (const [method, url] of routes) {
      const bulk = url === '/v2/apps' && method === 'PUT';
      const res = await fx.app.inject({ method, url, payload: bulk ? [c.body] : c.body });
      t.equal(res.statusCode, 422, `${method} ${url}: ${res.body}`);
      const details = c.details.map((d) => ({ ...d, path: bulk ? `/(0)${d.path === '/' ? '' : d.path}` : d.path }));
      t.strictSame(res.json(), { message: 'Object is not valid', details }, `${method} ${url}`);
    }
    // In a group body an app's semantic errors keep its own paths, as JSON pointers (groups-validation.test.ts).
    const group = await fx.app.inject({ method: 'POST', url: '/v2/groups', payload: { id: '/f', apps: [c.body] } });
    t.equal(group.statusCode, 422, `POST /v2/groups: ${group.body}`);
    const pointers = c.details.map((d) => ({ ...d, path: d.path.replace(/\/volumes\((\d+)\)/, '/volumes/$1') }));
    t.strictSame(group.json(), { message: 'Object is not valid', details: pointers }, 'POST /v2/groups');
    t.equal((await fx.app.inject({ method: 'GET', url: '/v2/apps/f/a' })).statusCode, 404, 'nothing stored');
  });

  t.test(`${c.name} with the features on`, async (t) => {
    const fx = makeApi({ config: { features: ALL } });
    t.teardown(() => fx.app.close());
    const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: c.body });
    if (c.withFeatures !== undefined) {
      t.equal(res.statusCode, 422, res.body);
      t.strictSame(res.json(), { message: 'Object is not valid', details: c.withFeatures });
      return;
    }
    t.equal(res.statusCode, 201, res.body);
    // Stored with the feature on, read back by a pacer started without it: it still loads.
    const spec = findRunSpec(fx.deps.scheduler.root(), '/f/a');
    if (spec === undefined) return t.fail('not stored');
    const loaded = runSpecFromRecord(JSON.parse(JSON.stringify(runSpecToRecord(spec))));
    t.ok(loaded.ok, JSON.stringify(loaded));
    if (loaded.ok) t.strictSame(loaded.value, spec, 'the same app');
  });
}

t.test('PATCH that adds gpus without gpu_resources is 422, the app unchanged', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.equal((await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app({}) })).statusCode, 201);
  const res = await fx.app.inject({ method: 'PATCH', url: '/v2/apps/f/a', payload: { gpus: 2 } });
  t.equal(res.statusCode, 422, res.body);
  t.strictSame(res.json(), { message: 'Object is not valid', details: [{ path: '/', errors: [FEATURE('gpu_resources')] }] });
  const got = (await fx.app.inject({ method: 'GET', url: '/v2/apps/f/a' })).json() as { app: { gpus: number } };
  t.equal(got.app.gpus, 0);
});

t.test('gpus 0, no secrets and host volumes need no feature', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const body = app({ gpus: 0, secrets: {}, env: { A: 'b' }, container: mesos({ volumes: [{ containerPath: '/h', hostPath: '/tmp', mode: 'RO' }] }) });
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: body });
  t.equal(res.statusCode, 201, res.body);
});
