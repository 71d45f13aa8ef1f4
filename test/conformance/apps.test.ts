import t from 'tap';
import { app, behaviour, MARATHON, pacer, runningApp, TIMESTAMP, UUID } from './conformance-kit';

// Apps as client libraries use them: create, read, list, scale, update, restart, delete, versions,
// and the errors they branch on (marathon-api-facts.md sections A–C).

t.test(behaviour('POST /v2/apps → 201, Location, Marathon-Deployment-Id, the app exactly as the app writer writes it (fact 18)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', { id: '/foo', cmd: 'sleep 100' });
  t.equal(res.status, 201);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.match(res.headers.get('location'), /\/foo$/, 'Location ends with the app id');
  const deploymentId = res.headers.get('marathon-deployment-id');
  t.match(deploymentId, UUID);
  t.same(res.json, {
    id: '/foo', cmd: 'sleep 100', instances: 1, cpus: 1, mem: 128, disk: 0, gpus: 0, executor: '',
    backoffSeconds: 1, backoffFactor: 1.15, maxLaunchDelaySeconds: 300, labels: {}, requirePorts: false,
    networks: [{ mode: 'host' }], portDefinitions: [{ port: 0, protocol: 'tcp', name: 'default' }],
    upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 1 }, killSelection: 'YOUNGEST_FIRST',
    unreachableStrategy: { inactiveAfterSeconds: 0, expungeAfterSeconds: 0 }, role: '*', version: res.json.version,
    tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0, deployments: [{ id: deploymentId }],
  });
  t.match(res.json.version, TIMESTAMP);
});

t.test(behaviour('empty and unset fields are left out of app JSON (RAML omitEmpty), versionInfo only once stored', MARATHON.appWriter), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', app('/foo', { args: [], constraints: [], env: {}, fetch: [], healthChecks: [], dependencies: [], secrets: {}, user: null }));
  t.equal(res.status, 201);
  const get = await p.call('GET', '/v2/apps/foo');
  for (const [view, json] of [['201', res.json], ['GET', get.json.app]] as const) {
    for (const key of ['args', 'constraints', 'env', 'fetch', 'healthChecks', 'dependencies', 'secrets', 'readinessChecks', 'user', 'container']) {
      t.notOk(key in json, `${view}: no ${key}`);
    }
    t.notOk(Object.values(json).includes(null), `${view}: no null`);
  }
  t.notOk('versionInfo' in res.json, 'the create response has no versionInfo');
  t.same(get.json.app.versionInfo, { lastScalingAt: res.json.version, lastConfigChangeAt: res.json.version }, 'GET has it (fact 20)');
});

t.test(behaviour('POST of an existing id → 409 "An app with id [/foo] already exists." (fact 22)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/apps', app('/foo'))).status, 201);
  const res = await p.call('POST', '/v2/apps?force=true', app('/foo'));
  t.equal(res.status, 409);
  t.same(res.json, { message: 'An app with id [/foo] already exists.' });
});

t.test(behaviour('validation: nothing to run → 422 "Object is not valid" at path / (fact 23)', MARATHON.appValidation), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', { id: '/foo' });
  t.equal(res.status, 422);
  t.same(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: ["AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'."] }] });
});

t.test(behaviour('shape errors → 422 "Invalid JSON" with play-json keys (facts 4, 25)', MARATHON.exceptionMapper), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', { id: 123, cmd: 'x' });
  t.equal(res.status, 422);
  t.same(res.json, { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.expected.jsstring'] }] });
});

t.test(behaviour('broken JSON → 400 "Invalid JSON" with the parser text as details; no body → 400 "Please specify data in JSON format" (facts 5, 6)', MARATHON.exceptionMapper), async (t) => {
  const p = await pacer(t);
  const broken = await p.call('POST', '/v2/apps', '{"id":"/test"');
  t.equal(broken.status, 400);
  t.equal(broken.json.message, 'Invalid JSON');
  t.type(broken.json.details, 'string');
  const empty = await p.call('POST', '/v2/apps');
  t.equal(empty.status, 400);
  t.equal(empty.json.message, 'Please specify data in JSON format');
});

t.test(behaviour('GET /v2/apps: counts and deployments on every app by default, no tasks (fact 35)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  t.same((await p.call('GET', '/v2/apps')).json, { apps: [] });
  await runningApp(t, p, '/foo', { instances: 2 });
  const { apps } = (await p.call('GET', '/v2/apps')).json;
  t.match(apps, [{ id: '/foo', tasksStaged: 0, tasksRunning: 2, tasksHealthy: 0, tasksUnhealthy: 0, deployments: [] }]);
  t.notOk('tasks' in apps[0]);
  const filtered = await p.call('GET', '/v2/apps?id=FO&embed=apps.tasks');
  t.equal(filtered.json.apps[0].tasks.length, 2, 'id filter (case-insensitive contains) and embed=apps.tasks (fact 36)');
});

t.test(behaviour('GET /v2/apps/{id}: {app} with counts, tasks and deployments; unknown → 404 with details [] (facts 38, 1)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/foo');
  const res = await p.call('GET', '/v2/apps/foo');
  t.equal(res.status, 200);
  t.match(res.json, { app: { id: '/foo', tasksRunning: 1, deployments: [], tasks: [{ appId: '/foo', state: 'TASK_RUNNING' }] } });
  const missing = await p.call('GET', '/v2/apps/nope');
  t.equal(missing.status, 404);
  t.same(missing.json, { message: "App '/nope' does not exist", details: [] });
});

t.test(behaviour('PUT {"instances": n} scales: 200, Marathon-Deployment-Id, {version, deploymentId} (facts 41, 13)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/foo');
  p.server.harness.advance(1000);
  const res = await p.call('PUT', '/v2/apps/foo', { instances: 3 });
  t.equal(res.status, 200);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers.get('marathon-deployment-id'), res.json.deploymentId);
  const deployments = (await p.call('GET', '/v2/deployments')).json;
  t.match(deployments, [{ id: res.json.deploymentId, steps: [{ actions: [{ action: 'ScaleApplication', app: '/foo' }] }] }], 'a scale-only change is one ScaleApplication step (fact 47)');
  p.runAll();
  t.equal((await p.call('GET', '/v2/apps/foo')).json.app.tasksRunning, 3);
});

t.test(behaviour('PUT of an unknown id creates it: 201 with Location and {version, deploymentId} (fact 43)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  const res = await p.call('PUT', '/v2/apps/new', app('/ignored'));
  t.equal(res.status, 201);
  t.match(res.headers.get('location'), /\/new$/);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/new')).status, 200, 'the URL wins over the body id');
});

t.test(behaviour('PATCH updates (200); PATCH of an unknown app → 404 without details (facts 44, 2)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/foo');
  p.server.harness.advance(1000);
  const res = await p.call('PATCH', '/v2/apps/foo', { cmd: 'sleep 5' });
  t.equal(res.status, 200);
  t.equal((await p.call('GET', '/v2/apps/foo')).json.app.cmd, 'sleep 5');
  const missing = await p.call('PATCH', '/v2/apps/nope', { cmd: 'x' });
  t.equal(missing.status, 404);
  t.same(missing.json, { message: "App '/nope' does not exist" });
});

t.test(behaviour('a change to an app held by a running deployment → 409 naming it; force=true goes through (facts 7, 48)', MARATHON.exceptions), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const locking = created.headers.get('marathon-deployment-id');
  const res = await p.call('PUT', '/v2/apps/foo', { instances: 2 });
  t.equal(res.status, 409);
  t.same(res.json.deployments, [{ id: locking }]);
  t.match(res.json.message, /^App is locked by one or more deployments\. Override with the option '\?force=true'\./);
  t.equal((await p.call('PUT', '/v2/apps/foo?force=true', { instances: 2 })).status, 200);
});

t.test(behaviour('POST /v2/apps/{id}/restart without a body → 200 {version, deploymentId}, one RestartApplication step; unknown → 404 (fact 50)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  await runningApp(t, p, '/foo');
  p.server.harness.advance(1000);
  const res = await p.call('POST', '/v2/apps/foo/restart');
  t.equal(res.status, 200);
  t.equal(res.headers.get('marathon-deployment-id'), res.json.deploymentId);
  t.match((await p.call('GET', '/v2/deployments')).json, [{ steps: [{ actions: [{ action: 'RestartApplication', app: '/foo' }] }] }]);
  t.equal((await p.call('POST', '/v2/apps/nope/restart')).status, 404);
});

t.test(behaviour('DELETE /v2/apps/{id} without a body → 200 {version, deploymentId}; force defaults to true (no 409); unknown → 404 (facts 49, 14)', MARATHON.apps), async (t) => {
  const p = await pacer(t);
  t.equal((await p.call('POST', '/v2/apps', app('/foo', { cpus: 1000 }))).status, 201, 'an app whose deployment cannot finish');
  const res = await p.call('DELETE', '/v2/apps/foo');
  t.equal(res.status, 200, 'not 409: force is true by default');
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal((await p.call('GET', '/v2/apps/foo')).status, 404, 'gone from /v2/apps at once');
  const missing = await p.call('DELETE', '/v2/apps/foo');
  t.equal(missing.status, 404);
  t.same(missing.json, { message: "App '/foo' does not exist" });
});

t.test(behaviour('GET /v2/apps/{id}/versions → {versions}; a version → the app JSON, unwrapped (fact 51)', MARATHON.appVersions), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const res = await p.call('GET', '/v2/apps/foo/versions');
  t.same(res.json, { versions: [created.json.version] });
  const version = await p.call('GET', `/v2/apps/foo/versions/${created.json.version}`);
  t.match(version.json, { id: '/foo', version: created.json.version });
  t.equal((await p.call('GET', '/v2/apps/foo/versions/2020-01-01T00:00:00.000Z')).status, 404);
});
