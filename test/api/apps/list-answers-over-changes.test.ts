import t from 'tap';
import type { Test } from 'tap';
import { appsJson } from '../../../src/api/render/app-json';
import { appFilter } from '../../../src/api/v2/apps/app-filter';
import { listTasksJson, tasksStatusFilter } from '../../../src/api/v2/tasks/list-tasks';
import { embedSet, type Query } from '../../../src/api/query';
import { allRunSpecs } from '../../../src/scheduler/index';
import type { AppSpec } from '../../../src/scheduler/model/app';
import { makeOffer } from '../../builders/cluster-builders';
import type { ApiFixture } from '../api-fixture';
import { apiFor, appBody, call, created, runAll, tick } from './apps-kit';

/**
 * `GET /v2/apps` and `GET /v2/tasks` answer kept encodings assembled from per-app pieces, and
 * encode again only the apps that changed (src/api/render/list-body-cache.ts). Through a sequence
 * of changes — creates, scales, status updates, health, a definition change, deletes — every
 * answer, for every embed and filter, must be byte for byte what serializing the objects gives
 * (`appsJson`, `listTasksJson`: the renderings before the kept texts existed), while the same
 * queries were answered (and their encodings kept) before each change.
 */

const EMBEDS = ['', 'apps.counts', 'apps.deployments', 'apps.tasks', 'apps.failures', 'apps.readiness', 'apps.lastTaskFailure', 'apps.taskStats'];
const FILTERS = ['', 'id=/g', 'cmd=sleep 7', 'label=tier==web', 'id=b&label=tier'];
const APP_QUERIES: readonly string[] = [
  ...EMBEDS.map((e) => (e === '' ? '' : `embed=${e}`)),
  'embed=apps.counts&embed=apps.deployments&embed=apps.readiness&embed=apps.lastTaskFailure&embed=apps.taskStats&embed=apps.tasks',
  ...FILTERS.filter((f) => f !== '').flatMap((f) => [f, `${f}&embed=apps.tasks`]),
];
const TASK_QUERIES: readonly string[] = ['', 'status=running', 'status=staging', 'status[]=running&status[]=staging', 'status=unknown'];

function queryObject(qs: string): Query {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(qs)) (out[k] ??= []).push(v);
  return out;
}

/** The answer as the objects serialize (the reference), for `GET /v2/apps?<qs>`. */
function appsReference(fx: ApiFixture, qs: string): string {
  const query = queryObject(qs);
  const keep = appFilter(query);
  const apps = allRunSpecs(fx.deps.scheduler.root()).filter((s): s is AppSpec => s.kind === 'app' && (keep === undefined || keep(s)));
  return JSON.stringify({ apps: appsJson(fx.deps, apps, new Set([...embedSet(query), 'counts', 'deployments'])) });
}

function tasksReference(fx: ApiFixture, qs: string): string {
  return JSON.stringify({ tasks: listTasksJson(fx.deps, tasksStatusFilter(queryObject(qs))) });
}

const url = (path: string, qs: string): string => (qs === '' ? path : `${path}?${qs}`);

/** Every query of both lists answered as the reference says; returns the answers, in order. */
async function checkAll(t: Test, fx: ApiFixture, after: string): Promise<string[]> {
  const answers: string[] = [];
  for (const qs of APP_QUERIES) {
    const res = await call(fx, 'GET', url('/v2/apps', qs));
    t.equal(res.text, appsReference(fx, qs), `after ${after}: GET /v2/apps?${qs}`);
    answers.push(res.text);
  }
  for (const qs of TASK_QUERIES) {
    const res = await call(fx, 'GET', url('/v2/tasks', qs));
    t.equal(res.text, tasksReference(fx, qs), `after ${after}: GET /v2/tasks?${qs}`);
    answers.push(res.text);
  }
  return answers;
}

/** The ids of the app's current tasks. */
function taskIds(fx: ApiFixture, appId: string): string[] {
  return fx.deps.scheduler.instances(appId).flatMap((i) => i.tasks.map((task) => task.taskId));
}

interface Change {
  readonly name: string;
  readonly run: (t: Test, fx: ApiFixture) => Promise<void> | void;
}

const check = { protocol: 'MESOS_HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 0 };
const HTTP_CHECK = { protocol: 'HTTP', path: '/health', portIndex: 0, gracePeriodSeconds: 0, intervalSeconds: 10, maxConsecutiveFailures: 0 };

/**
 * One probe interval later, every probe of the app's Running instances answered, the i-th with
 * `statuses[i]` (the last status for the rest); instances not probed are left alone.
 */
function probeAll(fx: ApiFixture, appId: string, ...statuses: number[]): void {
  tick(fx, 10_000);
  let i = 0;
  for (const inst of fx.deps.scheduler.instances(appId)) {
    if (inst.condition !== 'Running' || fx.harness.prober.last(inst.instanceId) === undefined) continue;
    fx.harness.probeInstance(inst.instanceId, { httpStatus: statuses[Math.min(i++, statuses.length - 1)] });
  }
}

const CHANGES: readonly Change[] = [
  { name: 'create /a (health-checked, readiness)', run: async (t, fx) => {
    await created(t, fx, appBody({
      id: '/a', instances: 2, portDefinitions: [{ port: 0, name: 'http' }], healthChecks: [check],
      readinessChecks: [{ name: 'ready', path: '/ready', portName: 'http' }],
    }));
  } },
  { name: 'its launches (staging)', run: (_t, fx) => void fx.harness.offer(makeOffer()) },
  { name: 'create /g/b and /g/c (labels, a service port)', run: async (t, fx) => {
    await created(t, fx, appBody({ id: '/g/b', instances: 3, labels: { tier: 'web' }, env: { Q: '"\u2028' } }));
    await created(t, fx, appBody({ id: '/g/c', instances: 1, cmd: 'sleep 7', portDefinitions: [{ port: 10555 }] }));
  } },
  { name: 'everything launched and running', run: (_t, fx) => void runAll(fx) },
  { name: 'a status update (killing)', run: (_t, fx) => fx.harness.status(taskIds(fx, '/g/b')[1], 'TASK_KILLING') },
  { name: 'health: healthy', run: (_t, fx) => fx.harness.status(taskIds(fx, '/a')[0], 'TASK_RUNNING', { healthy: true }) },
  { name: 'health: unhealthy, another task', run: (_t, fx) => { tick(fx); fx.harness.status(taskIds(fx, '/a')[1], 'TASK_RUNNING', { healthy: false }); } },
  { name: 'a failure (lastTaskFailure, relaunch)', run: (_t, fx) => { tick(fx); fx.harness.status(taskIds(fx, '/g/c')[0], 'TASK_FAILED', { message: 'exit 1' }); } },
  { name: 'scale /g/b up', run: async (_t, fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/g/b?force=true', { instances: 5 }); } },
  { name: 'the scale-up launched', run: (_t, fx) => void runAll(fx) },
  { name: 'a definition change of /a', run: async (_t, fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/a?force=true', { cmd: 'sleep 7' }); } },
  { name: 'the new version running', run: (_t, fx) => { runAll(fx); tick(fx, 60_000); } },
  // An app probed by the scheduler: after its first pass, a pass or a failure moves its results
  // (lastSuccess, consecutiveFailures) without changing the instance's health.
  { name: 'create /h (HTTP health check run by the scheduler) and run it', run: async (t, fx) => {
    tick(fx);
    await created(t, fx, appBody({ id: '/h', instances: 2, portDefinitions: [{ port: 0 }], healthChecks: [{ ...HTTP_CHECK }] }));
    runAll(fx);
  } },
  { name: 'its first probes pass (healthy)', run: (_t, fx) => probeAll(fx, '/h', 200) },
  { name: 'its next probes pass (only lastSuccess moves)', run: (_t, fx) => probeAll(fx, '/h', 200) },
  { name: 'one probe fails, one passes', run: (_t, fx) => probeAll(fx, '/h', 500, 200) },
  { name: 'a failure after the first (only consecutiveFailures and lastFailure move)', run: (_t, fx) => probeAll(fx, '/h', 500, 200) },
  { name: 'its health check removed (new instances replace the checked ones)', run: async (_t, fx) => {
    tick(fx);
    await call(fx, 'PUT', '/v2/apps/h?force=true', { healthChecks: [] });
  } },
  { name: 'the replacements launched; an old instance still probed', run: (_t, fx) => { runAll(fx); probeAll(fx, '/h', 200); } },
  { name: 'scale /g/b down', run: async (_t, fx) => { tick(fx); await call(fx, 'PUT', '/v2/apps/g/b?force=true', { instances: 1 }); } },
  { name: 'delete /g/c', run: async (_t, fx) => { tick(fx); await call(fx, 'DELETE', '/v2/apps/g/c?force=true'); } },
  { name: 'its tasks killed', run: (_t, fx) => { for (const id of [...taskIds(fx, '/g/c'), ...taskIds(fx, '/g/b')]) fx.harness.status(id, 'TASK_KILLED'); } },
  { name: 'create /d (no instances)', run: async (t, fx) => { await created(t, fx, appBody({ id: '/d', instances: 0 })); } },
  { name: 'delete /a', run: async (_t, fx) => { tick(fx); await call(fx, 'DELETE', '/v2/apps/a?force=true'); } },
];

t.test('every list answer equals the objects\' JSON after every change, for every embed and filter', async (t) => {
  const fx = apiFor(t);
  let before = await checkAll(t, fx, 'nothing');
  let mostTasks = 0;
  for (const change of CHANGES) {
    await change.run(t, fx);
    const after = await checkAll(t, fx, change.name);
    t.ok(after.some((text, i) => text !== before[i]), `${change.name}: shows in some answer`);
    // Asked again with nothing changed: the kept answers, still equal.
    t.strictSame(await checkAll(t, fx, `${change.name} (again)`), after, `${change.name}: the same answers again`);
    mostTasks = Math.max(mostTasks, (JSON.parse(after[APP_QUERIES.length]) as { tasks: unknown[] }).tasks.length);
    before = after;
  }
  t.ok(mostTasks >= 8, `up to ${mostTasks} tasks were listed at once`);
});
