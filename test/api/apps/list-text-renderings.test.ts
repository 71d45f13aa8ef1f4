import t from 'tap';
import type { Test } from 'tap';
import { appsJson, appsText } from '../../../src/api/render/app-json';
import { listTasksJson, listTasksText } from '../../../src/api/v2/tasks/list-tasks';
import { showApp, showAppText } from '../../../src/api/v2/apps/app-read';
import { appTasks, appTasksText } from '../../../src/api/v2/apps/app-tasks';
import type { AppSpec } from '../../../src/scheduler/model/app';
import { makeOffer } from '../../builders/cluster-builders';
import type { ApiFixture } from '../api-fixture';
import { apiFor, appBody, call, created, type Json, running, runAll, tick } from './apps-kit';

/**
 * `GET /v2/apps` and `GET /v2/tasks` answer JSON text built from renderings kept per app spec and
 * per task (src/api/render/app-json.ts appsText, task-json.ts taskText; issue 13). These tests
 * prove the text is the objects' JSON byte for byte, and that every change that shows in an
 * answer shows in the very next GET: the renderings are never stale.
 */

const EMBEDS: readonly (readonly string[])[] = [
  [], ['apps.counts'], ['apps.deployments'], ['apps.tasks'], ['apps.failures'], ['apps.readiness'], ['apps.lastTaskFailure'],
  ['apps.taskStats'], ['apps.counts', 'apps.deployments', 'apps.readiness', 'apps.lastTaskFailure', 'apps.taskStats', 'apps.tasks'],
];

function appSpecs(fx: ApiFixture): AppSpec[] {
  return fx.deps.scheduler.runSpecs().filter((s): s is AppSpec => s.kind === 'app');
}

/** A cluster with running, staging, failed, healthy and unhealthy tasks and a deployment in progress. */
async function mixedCluster(t: Test): Promise<ApiFixture> {
  const fx = apiFor(t);
  const check = { protocol: 'MESOS_HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 0 };
  const [healthy, unhealthy] = await running(t, fx, appBody({ id: '/h', instances: 2, portDefinitions: [{ port: 0 }], healthChecks: [check] }));
  fx.harness.status(healthy.taskId, 'TASK_RUNNING', { healthy: true });
  fx.harness.status(unhealthy.taskId, 'TASK_RUNNING', { healthy: false });
  const [failing] = await running(t, fx, appBody({ id: '/g/failing', instances: 1, labels: { '1': 'one', tier: 'web' }, env: { Q: '"\u2028' } }));
  fx.harness.status(failing.taskId, 'TASK_FAILED', { message: 'exit 1' });
  await created(t, fx, appBody({ id: '/g/waiting', instances: 3, portDefinitions: [{ port: 10555, name: 'http' }] }));
  fx.harness.offer(makeOffer());
  return fx;
}

t.test('appsText is JSON.stringify(appsJson) byte for byte, for every embed, twice (kept and fresh)', async (t) => {
  const fx = await mixedCluster(t);
  for (const embed of EMBEDS) {
    const set = new Set(embed);
    for (const round of ['first', 'kept']) {
      t.equal(appsText(fx.deps, appSpecs(fx), set), JSON.stringify(appsJson(fx.deps, appSpecs(fx), set)), `embed ${embed.join(',') || '(none)'}, ${round}`);
    }
  }
});

t.test('listTasksText is JSON.stringify({tasks: listTasksJson}) byte for byte, with status filters, twice', async (t) => {
  const fx = await mixedCluster(t);
  for (const conditions of [new Set<never>(), new Set(['Running'] as const), new Set(['Staging'] as const)]) {
    for (const round of ['first', 'kept']) {
      t.equal(listTasksText(fx.deps, conditions, () => true), JSON.stringify({ tasks: listTasksJson(fx.deps, conditions) }), `${[...conditions].join(',') || 'all'}, ${round}`);
    }
  }
  t.equal(listTasksText(fx.deps, new Set(), (id) => id !== '/h'), JSON.stringify({ tasks: listTasksJson(fx.deps, new Set()).filter((x) => x.appId !== '/h') }), 'viewable');
});

t.test('showAppText and appTasksText are JSON.stringify(showApp / appTasks) byte for byte, for every embed, twice', async (t) => {
  const fx = await mixedCluster(t);
  for (const spec of appSpecs(fx)) {
    for (const embed of [...EMBEDS, ['app.tasks'], ['tasks', 'counts']]) {
      const query = { embed: [...embed] };
      for (const round of ['first', 'kept']) {
        t.equal(showAppText(fx.deps, spec.id, query), JSON.stringify(showApp(fx.deps, spec.id, query)), `${spec.id} embed ${embed.join(',') || '(none)'}, ${round}`);
      }
    }
    t.equal(appTasksText(fx.deps, spec.id), JSON.stringify(appTasks(fx.deps, spec.id)), `${spec.id}/tasks`);
  }
  let unknown: unknown;
  try { showAppText(fx.deps, '/nope', {}); } catch (err) { unknown = err; }
  t.equal((unknown as { statusCode?: number } | undefined)?.statusCode, 404, 'an unknown app is still a 404');
});

/** What to do between two GETs, and what the second must show. */
interface Change {
  readonly name: string;
  readonly url: string;
  readonly change: (fx: ApiFixture, taskIds: string[]) => Promise<void> | void;
  readonly shows: (json: Json) => unknown;
}

const firstApp = (json: Json): Json => (json.apps as Json[])[0];
const firstTask = (json: Json): Json => (json.tasks as Json[])[0];

const CHANGES: readonly Change[] = [
  { name: 'a status update (running → counts)', url: '/v2/apps', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_KILLING'), shows: (j) => firstApp(j).tasksRunning },
  { name: 'health (healthy count)', url: '/v2/apps', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_RUNNING', { healthy: true }), shows: (j) => firstApp(j).tasksHealthy },
  { name: 'health (unhealthy count)', url: '/v2/apps', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_RUNNING', { healthy: false }), shows: (j) => firstApp(j).tasksUnhealthy },
  {
    name: 'a scale (definition, deployments, staged)', url: '/v2/apps',
    change: async (fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/a?force=true', { instances: 3 }); fx.harness.offer(makeOffer()); },
    shows: (j) => [firstApp(j).instances, firstApp(j).version, (firstApp(j).deployments as Json[]).length, firstApp(j).tasksStaged],
  },
  { name: 'a definition change', url: '/v2/apps', change: async (fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/a?force=true', { cmd: 'sleep 7' }); }, shows: (j) => [firstApp(j).cmd, firstApp(j).versionInfo] },
  { name: 'lastTaskFailure (embedded)', url: '/v2/apps?embed=apps.lastTaskFailure', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_FAILED', { message: 'boom' }), shows: (j) => firstApp(j).lastTaskFailure },
  { name: 'readiness (embedded)', url: '/v2/apps?embed=apps.readiness&embed=apps.tasks', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_FAILED'), shows: (j) => [firstApp(j).readinessCheckResults, firstApp(j).tasks] },
  { name: 'the embed parameter', url: '/v2/apps?embed=apps.taskStats', change: (fx) => tick(fx, 60_000), shows: (j) => firstApp(j).tasksStats },
  { name: 'a task state', url: '/v2/tasks', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_KILLING'), shows: (j) => firstTask(j).state },
  { name: 'a task gone (terminal: ports and times dropped)', url: '/v2/tasks', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_FINISHED'), shows: (j) => [(j.tasks as Json[]).length, firstTask(j)] },
  { name: 'health results', url: '/v2/tasks', change: (fx, ids) => fx.harness.status(ids[0], 'TASK_RUNNING', { healthy: true }), shows: (j) => firstTask(j).healthCheckResults },
  {
    name: 'health results again (a later failure)', url: '/v2/tasks',
    change: (fx, ids) => { fx.harness.status(ids[0], 'TASK_RUNNING', { healthy: true }); tick(fx); fx.harness.status(ids[0], 'TASK_RUNNING', { healthy: false }); },
    shows: (j) => firstTask(j).healthCheckResults,
  },
  { name: 'a scale up (more tasks)', url: '/v2/tasks', change: async (fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/a?force=true', { instances: 3 }); runAll(fx); }, shows: (j) => (j.tasks as Json[]).length },
  { name: 'a restart (new version on new tasks)', url: '/v2/tasks', change: async (fx) => { tick(fx); await call(fx, 'POST', '/v2/apps/a/restart?force=true'); runAll(fx); }, shows: (j) => (j.tasks as Json[]).map((x) => [x.id, x.version]) },
];

/** App `/a` with two running, health-checked tasks (and a readiness check for the readiness change). */
async function appForChange(t: Test, c: Change): Promise<{ fx: ApiFixture; ids: string[] }> {
  const fx = apiFor(t);
  const check = { protocol: 'MESOS_HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 0 };
  const readiness = c.name.startsWith('readiness') ? { readinessChecks: [{ name: 'ready', path: '/ready', portName: 'http' }] } : {};
  const launched = await running(t, fx, appBody({ id: '/a', instances: 2, portDefinitions: [{ port: 0, name: 'http' }], healthChecks: [check], ...readiness }));
  return { fx, ids: launched.map((l) => l.taskId) };
}

t.test('every change shows in the next GET (the kept renderings are never stale)', async (t) => {
  for (const c of CHANGES) {
    const { fx, ids } = await appForChange(t, c);
    const before = await call(fx, 'GET', c.url);
    const again = await call(fx, 'GET', c.url);
    t.equal(again.text, before.text, `${c.name}: nothing changed, the same answer`);
    await c.change(fx, ids);
    const after = await call(fx, 'GET', c.url);
    t.equal(after.status, 200, c.name);
    t.notSame(c.shows(after.json), c.shows(before.json), `${c.name}: the change shows`);
    const fresh = c.url.startsWith('/v2/tasks')
      ? JSON.stringify({ tasks: listTasksJson(fx.deps, new Set()) })
      : JSON.stringify({ apps: appsJson(fx.deps, appSpecs(fx), new Set([...new URL(c.url, 'http://x').searchParams.getAll('embed'), 'counts', 'deployments'])) });
    t.equal(after.text, fresh, `${c.name}: the answer is what a fresh rendering gives`);
  }
});

t.test('the text answers keep the JSON content type', async (t) => {
  const fx = await mixedCluster(t);
  for (const url of ['/v2/apps', '/v2/tasks']) {
    const res = await fx.app.inject({ method: 'GET', url });
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', url);
    t.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)), `${url}: content-length`);
  }
});

t.test('GET /v2/apps/{id} and its tasks show every change in the next GET', async (t) => {
  for (const c of CHANGES) {
    const { fx, ids } = await appForChange(t, c);
    const [show, tasks] = [await call(fx, 'GET', '/v2/apps/a?embed=app.taskStats&embed=app.readiness'), await call(fx, 'GET', '/v2/apps/a/tasks')];
    await c.change(fx, ids);
    const [show2, tasks2] = [await call(fx, 'GET', '/v2/apps/a?embed=app.taskStats&embed=app.readiness'), await call(fx, 'GET', '/v2/apps/a/tasks')];
    t.equal(show2.text, JSON.stringify(showApp(fx.deps, '/a', { embed: ['app.taskStats', 'app.readiness'] })), `${c.name}: /v2/apps/a is a fresh rendering`);
    t.equal(tasks2.text, JSON.stringify(appTasks(fx.deps, '/a')), `${c.name}: /v2/apps/a/tasks is a fresh rendering`);
    t.ok(show2.text !== show.text || tasks2.text !== tasks.text || c.url === '/v2/apps?embed=apps.taskStats', `${c.name}: something shows`);
  }
});
