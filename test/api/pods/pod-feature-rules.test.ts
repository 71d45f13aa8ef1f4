import t from 'tap';
import { makeApi } from '../api-fixture';
import { podBody, containerBody } from './pod-api-builders';
import { findRunSpec } from '../../../src/scheduler/index';
import { runSpecFromRecord, runSpecToRecord } from '../../../src/store/run-spec-record';

/*
 * Marathon's feature-gated pod fields (PodsValidation.podValidator): without `--enable_features
 * secrets` a pod's secrets, secret volumes, secret references in its or a container's environment
 * and a Docker image's pullConfig are a 422 at Marathon's paths (a container's as pacer's JSON
 * pointers, `/containers/0/…`), nothing stored; pacer answered 201. With the feature the same
 * bodies are accepted, and a pod stored so still loads without it. Marathon checks no feature for
 * a pod's GPUs: gpus above 0 need none.
 */

const FEATURE = 'Feature secrets is not enabled. Enable with --enable_features secrets)';
const SECRETS = { s: { source: '/vault/s' } };
const ENV_MESSAGE = 'use of secret-references in the environment requires the secrets feature to be enabled';
const SECRETS_DETAIL = { path: '/secrets', errors: ['must be empty', FEATURE] };

const cases: readonly { name: string; body: Record<string, unknown>; details: readonly { path: string; errors: string[] }[] }[] = [
  { name: 'secrets', body: podBody({ secrets: SECRETS }), details: [SECRETS_DETAIL] },
  {
    name: 'a secret in the pod environment',
    body: podBody({ secrets: SECRETS, environment: { PW: { secret: 's' } } }),
    details: [{ path: '/environment', errors: [ENV_MESSAGE] }, SECRETS_DETAIL],
  },
  {
    name: 'a secret in a container environment',
    body: podBody({ secrets: SECRETS }, { environment: { PW: { secret: 's' } } }),
    details: [{ path: '/containers/0/environment', errors: [ENV_MESSAGE] }, SECRETS_DETAIL],
  },
  {
    name: 'a secret volume',
    body: podBody({ secrets: SECRETS, volumes: [{ name: 'pw', secret: 's' }] }, { volumeMounts: [{ name: 'pw', mountPath: 'pw' }] }),
    details: [{ path: '/podSecretVolumes(pod)', errors: ['must be empty', FEATURE] }, SECRETS_DETAIL],
  },
  {
    name: 'a pullConfig',
    body: podBody({ secrets: SECRETS }, { image: { kind: 'DOCKER', id: 'busybox', pullConfig: { secret: 's' } } }),
    details: [{ path: '/containers/0/image/pullConfig', errors: ['must be empty', FEATURE] }, SECRETS_DETAIL],
  },
];

for (const c of cases) {
  t.test(`a pod with ${c.name} without the secrets feature is 422, nothing stored`, async (t) => {
    const fx = makeApi();
    t.teardown(() => fx.app.close());
    for (const [method, url] of [['POST', '/v2/pods'], ['PUT', '/v2/pods/p']] as const) {
      const res = await fx.app.inject({ method, url, payload: c.body });
      t.equal(res.statusCode, 422, `${method} ${url}: ${res.body}`);
      t.strictSame(res.json(), { message: 'Object is not valid', details: c.details }, `${method} ${url}`);
    }
    t.equal((await fx.app.inject({ method: 'GET', url: '/v2/pods/p' })).statusCode, 404, 'nothing stored');
  });

  t.test(`a pod with ${c.name} with the secrets feature is accepted, and its record loads without it`, async (t) => {
    const fx = makeApi({ config: { features: ['secrets'] } });
    t.teardown(() => fx.app.close());
    const res = await fx.app.inject({ method: 'POST', url: '/v2/pods', payload: c.body });
    t.equal(res.statusCode, 201, res.body);
    const spec = findRunSpec(fx.deps.scheduler.root(), '/p');
    if (spec === undefined) return t.fail('not stored');
    const loaded = runSpecFromRecord(JSON.parse(JSON.stringify(runSpecToRecord(spec))));
    t.ok(loaded.ok, JSON.stringify(loaded));
    if (loaded.ok) t.strictSame(loaded.value, spec, 'the same pod');
  });
}

t.test('a pod container with gpus needs no feature (Marathon checks none for pods)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const body = podBody({ containers: [containerBody({ resources: { cpus: 0.1, mem: 32, gpus: 1 } })] });
  const res = await fx.app.inject({ method: 'POST', url: '/v2/pods', payload: body });
  t.equal(res.statusCode, 201, res.body);
});
