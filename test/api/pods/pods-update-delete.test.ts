import t from 'tap';
import { createPod, launch, minimalPodEcho, podApi, podBody, send, T0 } from './pod-api-builders';

t.test('PUT of a new pod creates it: 200 (not 201), deployment header, the pod with defaults (fact 84)', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'PUT', '/v2/pods/p', podBody());
  t.equal(res.status, 200);
  t.strictSame(res.json, minimalPodEcho());
  t.match(res.headers['marathon-deployment-id'], /^[0-9a-f-]{36}$/);
  t.equal(res.headers.location, undefined);
  t.strictSame(api.apiEvents, [{ clientIp: '127.0.0.1', uri: '/v2/pods/p', eventType: 'pod_updated_event', timestamp: T0 }]);
  t.equal(api.harness.scheduler.runSpec('/p')?.kind, 'pod');
});

t.test('PUT replaces the whole definition: fields left out return to their defaults', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({ labels: { a: 'b' }, scaling: { kind: 'fixed', instances: 2 } }));
  api.harness.advance(1000);
  const res = await send(api.app, 'PUT', '/v2/pods/p?force=true', podBody());
  t.equal(res.status, 200);
  t.strictSame(res.json.labels, {});
  t.equal(res.json.scaling.instances, 1);
  t.equal(res.json.version, '2026-01-01T00:00:01.000Z');
});

t.test('PUT with an id that does not match the URL → 400 (fact 84)', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'PUT', '/v2/pods/p', podBody({ id: '/q' }));
  t.equal(res.status, 400);
  t.strictSame(res.json, { message: "'/p' does not match definition's id ('/q')" });
  t.equal(api.harness.scheduler.runSpecs().length, 0);
});

t.test('PUT accepts a relative body id equal to the URL id, and nested ids', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'PUT', '/v2/pods/web/db', podBody({ id: 'web/db' }));
  t.equal(res.status, 200);
  t.equal(res.json.id, '/web/db');
});

t.test('PUT validates the shape before comparing ids (fact 4 before fact 84)', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'PUT', '/v2/pods/p', podBody({ id: '/q', containers: 'none' }));
  t.equal(res.status, 422);
  t.strictSame(res.json, { message: 'Invalid JSON', details: [{ path: '/containers', errors: ['error.expected.jsarray'] }] });
});

t.test('PUT while the pod is being deployed → 409 locked (fact 7); force=true overrides (liberal booleans)', async (t) => {
  const forces = ['true', 'True', 'TRUE', ''];
  for (const force of forces) {
    t.test(`force=${JSON.stringify(force)}`, async (t) => {
      const api = podApi(t);
      const created = await createPod(api);
      const locked = await send(api.app, 'PUT', '/v2/pods/p', podBody({ labels: { v: '2' } }));
      t.equal(locked.status, 409);
      t.strictSame(locked.json.deployments, [{ id: created.headers['marathon-deployment-id'] }]);
      const forced = await send(api.app, 'PUT', `/v2/pods/p?force${force === '' ? '' : `=${force}`}`, podBody({ labels: { v: '2' } }));
      t.equal(forced.status, 200);
      t.strictSame(forced.json.labels, { v: '2' });
    });
  }
  t.test('force=maybe → 422', async (t) => {
    const api = podApi(t);
    const res = await send(api.app, 'PUT', '/v2/pods/p?force=maybe', podBody());
    t.equal(res.status, 422);
  });
});

t.test('a resident pod may change its role only with force=true (fact 114)', async (t) => {
  const api = podApi(t, { config: { defaultRole: 'ops' } });
  const resident = (role: string): Record<string, unknown> => podBody({
    id: '/dev/p',
    role,
    volumes: [{ name: 'data', persistent: { type: 'root', size: 10 } }],
  }, { volumeMounts: [{ name: 'data', mountPath: 'data' }] });
  const created = await send(api.app, 'POST', '/v2/pods', resident('dev'));
  t.equal(created.status, 201, created.body);
  const star = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', resident('*'));
  t.equal(star.status, 422, 'a resident pod cannot have the role *');
  const refused = await send(api.app, 'PUT', '/v2/pods/dev/p', resident('ops'));
  t.equal(refused.status, 422);
  t.equal(refused.json.details[0].path, '/role');
  t.match(refused.body, /change the role for existing reservations.*\?force=true/);
  const forced = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', resident('ops'));
  t.equal(forced.status, 200, forced.body);
  t.equal(forced.json.role, 'ops');
});

t.test('DELETE: 202, no body, deployment id in the header and in Location (fact 85)', async (t) => {
  const api = podApi(t);
  await createPod(api);
  launch(api);
  const res = await send(api.app, 'DELETE', '/v2/pods/p');
  t.equal(res.status, 202);
  t.equal(res.body, '');
  const deploymentId = res.headers['marathon-deployment-id'];
  t.match(deploymentId, /^[0-9a-f-]{36}$/);
  t.equal(res.headers.location, deploymentId);
  t.equal(api.apiEvents[api.apiEvents.length - 1].eventType, 'pod_deleted_event');
  t.equal(api.apiEvents[api.apiEvents.length - 1].uri, '/v2/pods/p');
  t.equal(api.harness.calls('kill').length, 1, 'the instance is being killed');
});

t.test('DELETE of an unknown pod → 404 with details [] (fact 85); an app id is not a pod', async (t) => {
  const api = podApi(t);
  const res = await send(api.app, 'DELETE', '/v2/pods/nope');
  t.equal(res.status, 404);
  t.strictSame(res.json, { message: "Pod '/nope' does not exist", details: [] });
  t.strictSame(api.apiEvents, []);
});

t.test('DELETE respects a running deployment unless force (fact 14: default false)', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const locked = await send(api.app, 'DELETE', '/v2/pods/p');
  t.equal(locked.status, 409);
  const forced = await send(api.app, 'DELETE', '/v2/pods/p?force=true');
  t.equal(forced.status, 202);
});

t.test('after a deletion completes, the pod is gone; its id and history can be reused (rule 12)', async (t) => {
  const api = podApi(t);
  const created = await createPod(api);
  const [task] = launch(api);
  await send(api.app, 'DELETE', '/v2/pods/p');
  api.harness.status(task.taskId, 'TASK_KILLED');
  t.equal((await send(api.app, 'GET', '/v2/pods/p')).status, 404);
  api.harness.advance(5000);
  const again = await createPod(api, podBody({ labels: { life: '2' } }));
  const versions = await send(api.app, 'GET', '/v2/pods/p::versions');
  t.strictSame(versions.json, [again.json.version, created.json.version]);
});

t.test('an existing pod keeps its old role acceptable after enforceRole is switched on, until changed (fact 111)', async (t) => {
  const api = podApi(t);
  t.equal((await send(api.app, 'POST', '/v2/pods', podBody({ id: '/dev/p' }))).status, 201);
  t.equal((await send(api.app, 'PATCH', '/v2/groups/dev', { enforceRole: true })).status, 200);
  const kept = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', podBody({ id: '/dev/p', role: '*', labels: { a: 'b' } }));
  t.equal(kept.status, 200, kept.body);
  t.equal(kept.json.role, '*');
  const third = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', podBody({ id: '/dev/p', role: 'foo' }));
  t.equal(third.status, 422);
  t.strictSame(third.json.details, [{ path: '/role', errors: ['got foo, expected one of: [dev, *]'] }]);
  const moved = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', podBody({ id: '/dev/p', role: 'dev' }));
  t.equal(moved.status, 200, moved.body);
  const back = await send(api.app, 'PUT', '/v2/pods/dev/p?force=true', podBody({ id: '/dev/p', role: '*' }));
  t.equal(back.status, 422);
  t.strictSame(back.json.details, [{ path: '/role', errors: ['got *, expected one of: [dev]'] }]);
});
