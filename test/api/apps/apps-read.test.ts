import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { apiFor, appBody, call, created, type Json, running, runAll } from './apps-kit';

const COUNT_KEYS = ['tasksStaged', 'tasksRunning', 'tasksHealthy', 'tasksUnhealthy'];

function apps(res: { json: Json }): Json[] {
  return res.json.apps as Json[];
}

t.test('GET /v2/apps with no apps → {"apps":[]} (fact 35)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'GET', '/v2/apps');
  t.equal(res.status, 200);
  t.strictSame(res.json, { apps: [] });
});

t.test('every listed app has counts and deployments without embed, and no tasks (fact 35)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a' }));
  await created(t, fx, appBody({ id: '/b' }));
  const list = apps(await call(fx, 'GET', '/v2/apps'));
  t.strictSame(list.map((a) => a.id), ['/a', '/b']);
  for (const app of list) {
    for (const key of COUNT_KEYS) t.type(app[key], 'number', `${String(app.id)} ${key}`);
    t.ok(Array.isArray(app.deployments), `${String(app.id)} deployments`);
    t.notOk('tasks' in app, `${String(app.id)} has no tasks`);
  }
  t.equal(list[0].tasksRunning, 1);
  t.strictSame(list[0].deployments, [], 'the deployment of /a finished');
  t.equal((list[1].deployments as Json[]).length, 1, '/b still deploys (no offer yet)');
});

t.test('embed values, with or without the app./apps. prefix (fact 36)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/a' }));
  const cases: [string, string[], string[]][] = [
    ['embed=apps.tasks', ['tasks'], ['readinessCheckResults', 'tasksStats']],
    ['embed=app.tasks', ['tasks'], []],
    ['embed=tasks', ['tasks'], []],
    ['embed=apps.readiness', ['readinessCheckResults'], ['tasks']],
    ['embed=apps.taskStats', ['tasksStats'], ['tasks', 'taskStats']],
    ['embed=apps.failures', ['tasks'], []],
    ['embed=apps.counts&embed=apps.deployments', [], ['tasks']],
    ['embed=apps.nonsense', [], ['tasks', 'nonsense']],
    ['embed=apps.tasks,apps.readiness', ['tasks', 'readinessCheckResults'], []],
  ];
  for (const [query, present, absent] of cases) {
    const [app] = apps(await call(fx, 'GET', `/v2/apps?${query}`));
    for (const key of present) t.ok(key in app, `${query}: ${key}`);
    for (const key of absent) t.notOk(key in app, `${query}: no ${key}`);
    for (const key of COUNT_KEYS) t.ok(key in app, `${query}: ${key} always`);
  }
  const [withTasks] = apps(await call(fx, 'GET', '/v2/apps?embed=apps.tasks'));
  t.match(withTasks.tasks, [{ appId: '/a', state: 'TASK_RUNNING', servicePorts: [] }]);
  const [withStats] = apps(await call(fx, 'GET', '/v2/apps?embed=apps.taskStats'));
  t.match(withStats.tasksStats, { totalSummary: { stats: { counts: { staged: 0, running: 1, healthy: 0, unhealthy: 0 } } } });
  const [withReadiness] = apps(await call(fx, 'GET', '/v2/apps?embed=apps.readiness'));
  t.strictSame(withReadiness.readinessCheckResults, []);
});

t.test('lastTaskFailure appears only once a task failed (fact 36)', async (t) => {
  const fx = apiFor(t);
  const [launch] = await running(t, fx, appBody({ id: '/a' }));
  const before = (await call(fx, 'GET', '/v2/apps/a')).json.app as Json;
  t.notOk('lastTaskFailure' in before);
  fx.harness.status(launch.taskId, 'TASK_FAILED', { message: 'exit 1' });
  const [listed] = apps(await call(fx, 'GET', '/v2/apps?embed=apps.lastTaskFailure'));
  t.strictSame(listed.lastTaskFailure, {
    appId: '/a', host: 'host-1', message: 'exit 1', state: 'TASK_FAILED', taskId: launch.taskId,
    timestamp: '2026-01-01T00:00:00.000Z', version: '2026-01-01T00:00:00.000Z', slaveId: 'agent-host-1',
  }, 'Marathon\'s TaskFailure shape, from the core');
  const shown = (await call(fx, 'GET', '/v2/apps/a')).json.app as Json;
  t.match(shown.lastTaskFailure, { taskId: launch.taskId }, 'a single app always embeds it (fact 38)');
  const plain = apps(await call(fx, 'GET', '/v2/apps'))[0];
  t.notOk('lastTaskFailure' in plain, 'the list embeds it only when asked');
});

t.test('filters: id and cmd substrings ignoring case, label selectors (fact 37)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/prod/web', cmd: 'python -m http.server', labels: { env: 'prod', tier: 'web' } }));
  await created(t, fx, appBody({ id: '/prod/db', cmd: 'postgres', labels: { env: 'prod', tier: 'db' } }));
  await created(t, fx, appBody({ id: '/dev/web', args: ['serve'], cmd: undefined, labels: { env: 'dev' } }));
  const cases: [string, string[]][] = [
    ['id=WEB', ['/dev/web', '/prod/web']],
    ['id=prod/', ['/prod/db', '/prod/web']],
    ['cmd=HTTP', ['/prod/web']],
    ['cmd=serve', ['/prod/web']],
    ['cmd=POSTGRES', ['/prod/db']],
    ['label=env==prod', ['/prod/db', '/prod/web']],
    ['label=env==prod,tier!=db', ['/prod/web']],
    ['label=tier!=db', ['/prod/web']],
    ['label=tier', ['/prod/db', '/prod/web']],
    ['label=env in (dev, prod), tier notin (web)', ['/prod/db']],
    ['label=', ['/dev/web', '/prod/db', '/prod/web']],
    ['id=prod&label=tier==web', ['/prod/web']],
    // A repeated parameter: its first value, as a single-valued JAX-RS @QueryParam takes (the last before 2026-12-03).
    ['id=db&id=web', ['/prod/db']],
    ['cmd=postgres&cmd=http', ['/prod/db']],
  ];
  for (const [query, expected] of cases) {
    const res = await call(fx, 'GET', `/v2/apps?${query.replace(/ /g, '%20')}`);
    t.equal(res.status, 200, query);
    t.strictSame(apps(res).map((a) => a.id).sort(), expected, query);
  }
});

t.test('an unparsable label selector → 422 with only a message (facts 9, 37)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'GET', '/v2/apps?label=env%3D%3D');
  t.equal(res.status, 422);
  t.match(res.json, { message: /^Can not parse label selector env==\. Reason: / });
  t.strictSame(Object.keys(res.json), ['message']);
});

t.test('GET /v2/apps/{id} → {"app":…} with counts, tasks and deployments (fact 38)', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ id: '/prod/web', instances: 2 }), makeOffer({ cpus: 1, mem: 1024 }));
  const res = await call(fx, 'GET', '/v2/apps/prod/web');
  t.equal(res.status, 200);
  const app = res.json.app as Json;
  t.match(app, { id: '/prod/web', tasksRunning: 2, tasksStaged: 0, deployments: [] });
  t.equal((app.tasks as Json[]).length, 2);
  const slashes = await call(fx, 'GET', '/v2/apps//prod//web');
  t.equal(slashes.status, 200, 'repeated slashes are collapsed');
  t.equal((slashes.json.app as Json).id, '/prod/web');
  const embedded = (await call(fx, 'GET', '/v2/apps/prod/web?embed=app.taskStats&embed=app.readiness')).json.app as Json;
  t.ok('tasksStats' in embedded && 'readinessCheckResults' in embedded, 'extra embeds on a single app');
});

t.test('GET of an unknown app → 404 with empty details (fact 38)', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'GET', '/v2/apps/nope');
  t.equal(res.status, 404);
  t.strictSame(res.json, { message: "App '/nope' does not exist", details: [] });
});

t.test('GET /v2/apps/{group}/* lists every app below the group (fact 39)', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/prod/web' }));
  await created(t, fx, appBody({ id: '/prod/back/db' }));
  await created(t, fx, appBody({ id: '/dev/web' }));
  const res = await call(fx, 'GET', '/v2/apps/prod/*');
  t.equal(res.status, 200);
  const list = res.json['*'] as Json[];
  t.strictSame(list.map((a) => a.id).sort(), ['/prod/back/db', '/prod/web']);
  for (const app of list) t.ok('tasks' in app && 'tasksRunning' in app && 'deployments' in app, String(app.id));
  t.equal(((await call(fx, 'GET', '/v2/apps/*')).json['*'] as Json[]).length, 3, 'the root group has them all');
  const unknown = await call(fx, 'GET', '/v2/apps/staging/*');
  t.equal(unknown.status, 404);
  t.strictSame(unknown.json, { message: "Group '/staging' does not exist", details: [] });
});

t.test('counts follow the instances: staged before running', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/a', instances: 2 }));
  const launched = fx.harness.offer(makeOffer({ cpus: 1, mem: 1024 }));
  fx.harness.status(launched[0].taskId, 'TASK_STAGING');
  let app = (await call(fx, 'GET', '/v2/apps/a')).json.app as Json;
  t.match(app, { tasksStaged: 2, tasksRunning: 0 }, 'a launched task without status counts as staged');
  runAll(fx);
  fx.harness.run(launched);
  app = (await call(fx, 'GET', '/v2/apps/a')).json.app as Json;
  t.match(app, { tasksStaged: 0, tasksRunning: 2 });
});

t.test('readinessCheckResults show each instance\'s readiness once it runs (fact 36)', async (t) => {
  const fx = apiFor(t);
  const [launch] = await running(t, fx, appBody({
    portDefinitions: [{ port: 0, name: 'http-api' }], readinessChecks: [{ intervalSeconds: 30, timeoutSeconds: 10 }],
  }));
  const app = (await call(fx, 'GET', '/v2/apps/foo?embed=app.readiness')).json.app as Json;
  // Marathon's writer leaves an empty `lastResponse?` out (readinessCheck.raml); it was written as null.
  t.strictSame(app.readinessCheckResults, [{ name: 'readinessCheck', taskId: launch.taskId, ready: false }], 'no lastResponse key before an answer');
  t.equal((app.deployments as Json[]).length, 1, 'the deployment waits for readiness');
});

t.test('a readiness result carries lastResponse only when one is kept (preserveLastResponse)', async (t) => {
  const fx = apiFor(t);
  const [launch] = await running(t, fx, appBody({
    portDefinitions: [{ port: 0, name: 'http-api' }],
    readinessChecks: [{ intervalSeconds: 30, timeoutSeconds: 10, httpStatusCodesForReady: [204], preserveLastResponse: true }],
  }));
  const probe = fx.harness.prober.requests.find((r) => r.purpose === 'readiness');
  if (probe === undefined) throw new Error('no readiness probe was sent');
  fx.harness.probe(probe.probeId, { httpStatus: 200, contentType: 'text/plain', body: 'warming' });
  const app = (await call(fx, 'GET', '/v2/apps/foo?embed=app.readiness')).json.app as Json;
  t.strictSame(app.readinessCheckResults, [{
    name: 'readinessCheck', taskId: launch.taskId, ready: false, lastResponse: { status: 200, contentType: 'text/plain', body: 'warming' },
  }]);
  const [deployment] = (await call(fx, 'GET', '/v2/deployments')).json as unknown as Json[];
  t.strictSame((deployment.currentActions as Json[])[0].readinessCheckResults, app.readinessCheckResults, '/v2/deployments: the same');
});

t.test('readinessCheckResults list only the results of running deployments, as Marathon\'s AppInfoBaseData', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({
    portDefinitions: [{ port: 0, name: 'http-api' }], readinessChecks: [{ intervalSeconds: 30, timeoutSeconds: 10 }],
  }));
  const probe = fx.harness.prober.requests.find((r) => r.purpose === 'readiness');
  if (probe === undefined) throw new Error('no readiness probe was sent');
  fx.harness.probe(probe.probeId, { httpStatus: 200 });
  t.equal(fx.deps.scheduler.readiness('/foo').length, 1, 'the core keeps the instance\'s last result');
  const app = (await call(fx, 'GET', '/v2/apps/foo?embed=app.readiness')).json.app as Json;
  t.strictSame(app.deployments, [], 'the deployment finished once the instance was ready');
  t.strictSame(app.readinessCheckResults, [], 'no running deployment: no results listed');
  const [listed] = apps(await call(fx, 'GET', '/v2/apps?embed=apps.readiness'));
  t.strictSame(listed.readinessCheckResults, [], 'the list says the same');
});
