import t from 'tap';
import { makeApp } from '../../builders/run-spec-builders';
import { createPod, launch, list, minimalPodEcho, podApi, podBody, send } from './pod-api-builders';

t.test('HEAD /v2/pods → 200 with an empty body (fact 77)', async (t) => {
  const api = podApi(t);
  const res = await api.app.inject({ method: 'HEAD', url: '/v2/pods' });
  t.equal(res.statusCode, 200);
  t.equal(res.body, '');
});

t.test('GET /v2/pods: [] when empty; every pod sorted by id with its defaults (fact 82)', async (t) => {
  const api = podApi(t);
  t.strictSame((await send(api.app, 'GET', '/v2/pods')).json, []);
  await createPod(api, podBody({ id: '/b' }));
  await createPod(api, podBody({ id: '/a/x' }));
  const res = await send(api.app, 'GET', '/v2/pods');
  t.equal(res.status, 200);
  // Both were created at the fixture's one instant: the second change is stamped 1 ms after the first (one version rule).
  t.strictSame(res.json, [minimalPodEcho('2026-01-01T00:00:00.001Z', '/a/x'), minimalPodEcho(undefined, '/b')]);
  t.strictSame((await send(api.app, 'GET', '/v2/pods/')).json, res.json, 'a trailing slash is the same list');
});

t.test('GET /v2/pods/{id}: the pod; repeated slashes and a trailing slash are tolerated', async (t) => {
  const api = podApi(t);
  await createPod(api, podBody({ id: '/web/p' }));
  for (const url of ['/v2/pods/web/p', '/v2/pods//web///p', '/v2/pods/web/p/', '//v2//pods/web/p']) {
    const res = await send(api.app, 'GET', url);
    t.equal(res.status, 200, url);
    t.strictSame(res.json, minimalPodEcho(undefined, '/web/p'), url);
  }
});

t.test('GET of unknown pods → 404 with details [] (facts 1, 83)', async (t) => {
  const api = podApi(t);
  for (const url of ['/v2/pods/nope', '/v2/pods/nope::status', '/v2/pods/nope::versions', '/v2/pods/nope::versions/2026-01-01T00:00:00.000Z']) {
    const res = await send(api.app, 'GET', url);
    t.equal(res.status, 404, url);
    t.strictSame(res.json, { message: "Pod '/nope' does not exist", details: [] }, url);
  }
});

t.test('an app is not a pod: GET /v2/pods/{appId} → 404', async (t) => {
  const api = podApi(t);
  api.harness.put(makeApp({ id: '/app' }));
  t.equal((await send(api.app, 'GET', '/v2/pods/app')).status, 404);
  t.strictSame((await send(api.app, 'GET', '/v2/pods')).json, []);
});

t.test('unknown suffixes answer 404; a method another method serves the target with answers 405 with Allow', async (t) => {
  const api = podApi(t);
  await createPod(api);
  const cases: [string, string, number, string | undefined][] = [
    ['GET', '/v2/pods/p::nope', 404, undefined],
    ['GET', '/v2/pods/p::status/x', 404, undefined],
    ['GET', '/v2/pods/::versions', 404, undefined],
    ['GET', '/v2/pods/p::instances', 405, 'DELETE, OPTIONS'],
    ['PUT', '/v2/pods/p::status', 405, 'GET, HEAD, OPTIONS'],
    ['DELETE', '/v2/pods/::status', 405, 'GET, HEAD, OPTIONS'],
    ['DELETE', '/v2/pods/p::versions', 405, 'GET, HEAD, OPTIONS'],
    ['PATCH', '/v2/pods/p', 405, 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['PATCH', '/v2/pods', 405, 'GET, HEAD, POST, OPTIONS'],
  ];
  for (const [method, url, status, allow] of cases) {
    const res = await send(api.app, method, url, method === 'PUT' ? podBody() : undefined);
    t.equal(res.status, status, `${method} ${url}`);
    t.equal(res.headers.allow, allow, `${method} ${url}: Allow`);
    t.equal(typeof res.json.message, 'string');
  }
});

t.test('versions: one entry equal to the create version; each version readable (fact 86)', async (t) => {
  const api = podApi(t);
  const created = await createPod(api);
  const v1 = created.json.version as unknown as string;
  t.strictSame((await send(api.app, 'GET', '/v2/pods/p::versions')).json, [v1]);
  api.harness.advance(60_000);
  const updated = await send(api.app, 'PUT', '/v2/pods/p?force=true', podBody({ labels: { v: '2' } }));
  const v2 = updated.json.version as unknown as string;
  t.not(v2, v1);
  const versions = list((await send(api.app, 'GET', '/v2/pods/p::versions')).json);
  t.strictSame(versions, [v2, v1], 'newest first');
  const old = await send(api.app, 'GET', `/v2/pods/p::versions/${v1}`);
  t.equal(old.status, 200);
  t.strictSame(old.json, minimalPodEcho(v1));
  const newer = await send(api.app, 'GET', `/v2/pods/p::versions/${v2}`);
  t.strictSame(newer.json.labels, { v: '2' });
  const shortForm = await send(api.app, 'GET', '/v2/pods/p::versions/2026-01-01T00:00:00Z');
  t.equal(shortForm.status, 200, 'a timestamp without milliseconds finds the stored version');
  const unknown = await send(api.app, 'GET', '/v2/pods/p::versions/2020-01-01T00:00:00.000Z');
  t.equal(unknown.status, 404);
});

t.test('rule 13: while a redeployment runs, GET reports the previous version; the new one once it completes', async (t) => {
  const api = podApi(t);
  const created = await createPod(api);
  const [oldTask] = launch(api);
  t.equal(api.harness.scheduler.deployments().length, 0, 'the create deployment finished');
  api.harness.advance(1000);
  const put = await send(api.app, 'PUT', '/v2/pods/p', podBody({}, { exec: { command: { shell: 'sleep 2000' } } }));
  t.equal(put.status, 200);
  t.equal(put.json.containers[0].exec.command.shell, 'sleep 2000', 'the PUT answer is the new definition');

  const during = await send(api.app, 'GET', '/v2/pods/p');
  t.strictSame(during.json, created.json, 'the previous version while the redeployment runs');
  t.strictSame((await send(api.app, 'GET', '/v2/pods')).json, [created.json]);
  t.equal((await send(api.app, 'GET', '/v2/pods/p::status')).json.spec.version, created.json.version);

  launch(api);
  api.harness.status(oldTask.taskId, 'TASK_KILLED');
  t.equal(api.harness.scheduler.deployments().length, 0, 'the redeployment finished');
  const after = await send(api.app, 'GET', '/v2/pods/p');
  t.equal(after.json.version, put.json.version);
  t.equal(after.json.containers[0].exec.command.shell, 'sleep 2000');
});
