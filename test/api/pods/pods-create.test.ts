import t from 'tap';
import { makeApp } from '../../builders/run-spec-builders';
import { createPod, minimalPodEcho, podApi, podBody, send, T0, type Json } from './pod-api-builders';

t.test('POST /v2/pods: 201, Location, deployment header, the pod with every default (fact 78, spec 2.1)', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'POST', '/v2/pods', podBody());
  t.equal(res.status, 201);
  t.strictSame(res.json, minimalPodEcho());
  t.match(res.headers.location, /\/p$/);
  t.match(res.headers['marathon-deployment-id'], /^[0-9a-f-]{36}$/);
  t.match(res.headers['content-type'], /^application\/json/);
  t.ok(api.harness.scheduler.deployments().some((d) => d.deployment.plan.id === res.headers['marathon-deployment-id']));
});

t.test('POST publishes pod_created_event with clientIp and uri (spec section 6, fact 107)', async (t) => {
  const api = podApi(t);
  await send(api.app, 'POST', '/v2/pods?force=false', podBody());
  t.strictSame(api.apiEvents, [{ clientIp: '127.0.0.1', uri: '/v2/pods', eventType: 'pod_created_event', timestamp: T0 }]);
});

t.test('a relative id is made absolute; user-given defaults are echoed as given', async (t) => {
  const api = podApi(t);
  const res = await createPod(api, podBody({
    id: 'web/p',
    labels: { tier: 'web' },
    scaling: { kind: 'fixed', instances: 2 },
    scheduling: { killSelection: 'Oldest_First', unreachableStrategy: 'disabled' },
  }));
  t.equal(res.json.id, '/web/p');
  t.strictSame(res.json.labels, { tier: 'web' });
  t.strictSame(res.json.scaling, { kind: 'fixed', instances: 2, maxInstances: null });
  t.equal(res.json.scheduling.killSelection, 'OLDEST_FIRST');
  t.equal(res.json.scheduling.unreachableStrategy, 'disabled');
  t.equal(api.harness.scheduler.runSpec('/web/p')?.instances, 2);
});

t.test('POST of an existing pod id → 409 (fact 80), nothing deployed, no event', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const deployments = api.harness.scheduler.deployments().length;
  const res = await send(api.app, 'POST', '/v2/pods', podBody({ labels: { a: 'b' } }));
  t.equal(res.status, 409);
  t.strictSame(res.json, { message: 'A pod with id [/p] already exists.' });
  t.equal(api.harness.scheduler.deployments().length, deployments);
  t.equal(api.apiEvents.length, 1);
});

interface ShapeCase {
  readonly name: string;
  readonly body: unknown;
  readonly details: readonly { path: string; errors: readonly string[] }[];
}

/** Fact 4: shape problems → 422 "Invalid JSON" with play-json keys, before any semantic rule. */
const shapeCases: readonly ShapeCase[] = [
  { name: 'id of the wrong type', body: podBody({ id: 123 }), details: [{ path: '/id', errors: ['error.expected.jsstring'] }] },
  { name: 'missing id', body: podBody({ id: undefined }), details: [{ path: '/id', errors: ['error.path.missing'] }] },
  { name: 'id with an upper-case segment', body: podBody({ id: '/Web' }), details: [{ path: '/id', errors: ['error.pattern'] }] },
  { name: 'missing containers', body: { id: '/p' }, details: [{ path: '/containers', errors: ['error.path.missing'] }] },
  { name: 'no containers (minItems 1)', body: podBody({ containers: [] }), details: [{ path: '/containers', errors: ['error.minLength'] }] },
  {
    name: 'negative instances',
    body: podBody({ scaling: { kind: 'fixed', instances: -1 } }),
    details: [{ path: '/scaling/instances', errors: ['error.min'] }],
  },
  {
    name: 'minimumHealthCapacity above 1',
    body: podBody({ scheduling: { upgrade: { minimumHealthCapacity: 1.2 } } }),
    details: [{ path: '/scheduling/upgrade/minimumHealthCapacity', errors: ['error.max'] }],
  },
  {
    name: 'container without resources, with a bad name',
    body: podBody({}, { name: 'C_1', resources: undefined }),
    details: [
      { path: '/containers/0/resources', errors: ['error.path.missing'] },
      { path: '/containers/0/name', errors: ['error.pattern'] },
    ],
  },
  {
    name: 'memory as a string',
    body: podBody({}, { resources: { cpus: 1, mem: 'lots' } }),
    details: [{ path: '/containers/0/resources/mem', errors: ['error.expected.jsnumber'] }],
  },
  {
    name: 'a constraint with one field',
    body: podBody({ scheduling: { placement: { constraints: [['hostname']] } } }),
    details: [{ path: '/scheduling/placement/constraints/0', errors: ['error.minLength'] }],
  },
  {
    name: 'an unknown killSelection',
    body: podBody({ scheduling: { killSelection: 'RANDOM' } }),
    details: [{ path: '/scheduling/killSelection', errors: ['error.unknown.enum.literal'] }],
  },
  { name: 'a body that is an array', body: [podBody()], details: [{ path: '/', errors: ['error.expected.jsobject'] }] },
];

for (const c of shapeCases) {
  t.test(`shape: ${c.name} → 422 Invalid JSON`, async (t) => {
    const api = podApi(t);
    const res = await send(api.app, 'POST', '/v2/pods', c.body);
    t.equal(res.status, 422);
    t.strictSame(res.json, { message: 'Invalid JSON', details: c.details });
    t.equal(api.harness.scheduler.runSpecs().length, 0);
    t.strictSame(api.apiEvents, []);
  });
}

interface SemanticCase {
  readonly name: string;
  readonly body: Json;
  readonly path: string;
  readonly error: string | RegExp;
}

/** Fact 3: semantic problems (the converter's) → 422 "Object is not valid". */
const semanticCases: readonly SemanticCase[] = [
  {
    name: 'two containers with one name (fact 80)',
    body: podBody({ containers: [podBody().containers, podBody().containers].flat() as Json[] }),
    path: '/containers',
    error: 'container names must be unique',
  },
  { name: 'a role outside the allowed set (fact 109)', body: podBody({ role: 'foo' }), path: '/role', error: 'got foo, expected one of: [*]' },
  { name: 'a reserved last segment (fact 26)', body: podBody({ id: '/a/versions' }), path: '/id', error: /reserved keywords/ },
  {
    name: 'a health check naming no endpoint of the container',
    body: podBody({}, { healthCheck: { http: { endpoint: 'nope' } } }),
    path: '/containers/0/healthCheck/http/endpoint',
    error: /is not an endpoint/,
  },
];

for (const c of semanticCases) {
  t.test(`semantic: ${c.name} → 422 Object is not valid`, async (t) => {
    const api = podApi(t);
    const res = await send(api.app, 'POST', '/v2/pods', c.body);
    t.equal(res.status, 422);
    t.equal(res.json.message, 'Object is not valid');
    const detail = (res.json.details as unknown as { path: string; errors: string[] }[]).find((d) => d.path === c.path);
    t.ok(detail, `a detail at ${c.path}: ${res.body}`);
    t.match(detail?.errors.join('\n'), c.error);
  });
}

t.test('no body → 400 (fact 6); broken JSON → 400 with the parser text (fact 5)', async (t) => {
  const api = podApi(t);
  const empty = await api.app.inject({ method: 'POST', url: '/v2/pods', headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 400);
  t.equal(JSON.parse(empty.body).message, 'Please specify data in JSON format');
  const none = await send(api.app, 'POST', '/v2/pods');
  t.equal(none.status, 400);
  t.equal(none.json.message, 'Please specify data in JSON format');
  const broken = await api.app.inject({ method: 'POST', url: '/v2/pods', headers: { 'content-type': 'application/json' }, payload: '{"id":"/p"' });
  t.equal(broken.statusCode, 400);
  t.equal(JSON.parse(broken.body).message, 'Invalid JSON');
});

t.test('a pod where an app lives → refused, the app untouched', async (t) => {
  const api = podApi(t);
  api.harness.put(makeApp({ id: '/p' }));
  const res = await send(api.app, 'POST', '/v2/pods', podBody());
  t.equal(res.status, 422, 'fact 76: a validation failure, not a conflict');
  t.same(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: ['Applications and Pods may not share the same id'] }] });
  t.equal(api.harness.scheduler.runSpec('/p')?.kind, 'app');
});

t.test('roles: the group role is allowed and enforced groups impose theirs (spec 2.7, facts 110–112)', async (t) => {
  t.test('a pod in /dev may take the role dev', async (t) => {
    const api = podApi(t);
    const res = await createPod(api, podBody({ id: '/dev/p', role: 'dev' }));
    t.equal(res.json.role, 'dev');
  });
  t.test('with --new_group_enforce_role top, a pod in a new group gets the group role', async (t) => {
    const api = podApi(t, { config: { newGroupEnforceRole: 'top' }, options: { newGroupEnforceRole: 'top' } });
    const res = await createPod(api, podBody({ id: '/dev/p' }));
    t.equal(res.json.role, 'dev');
    const refused = await send(api.app, 'POST', '/v2/pods', podBody({ id: '/dev/q', role: '*' }));
    t.equal(refused.status, 422);
    t.match(refused.body, /got \*, expected one of: \[dev\]/);
  });
  t.test('the configured default role is the default', async (t) => {
    const api = podApi(t, { config: { defaultRole: 'ops' } });
    const res = await createPod(api);
    t.equal(res.json.role, 'ops');
  });
});

t.test('a definition fetched with GET can be sent back unchanged (nulls read as absent)', async (t) => {
  const api = podApi(t);
  const created = await createPod(api, podBody({}, { endpoints: [{ name: 'http', hostPort: 0 }] }));
  const { version: _v, versionInfo: _vi, ...echo } = created.json;
  const res = await send(api.app, 'PUT', '/v2/pods/p', echo);
  t.equal(res.status, 200, res.body);
  t.strictSame(res.json.containers, created.json.containers);
});
