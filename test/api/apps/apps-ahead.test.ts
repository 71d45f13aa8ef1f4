import t from 'tap';
import type { Test } from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeApp, makeHealthCheck } from '../../builders/run-spec-builders';
import { makeOffer } from '../../builders/cluster-builders';
import { ManualAheadClock } from '../../builders/manual-ahead-clock';
import { standbyDeps } from '../../builders/standby-deps';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { appPieceKeptEncoded, appsJson, POLLED_EMBEDS } from '../../../src/api/render/app-json';
import { appsAheadQueue, keepListsAhead } from '../../../src/api/v2/lists-ahead';
import { KEEP_AHEAD_MAX_APP_INSTANCES, KEEP_AHEAD_QUIET_MS } from '../../../src/api/render/keep-ahead';
import { launchRunning } from '../tasks/tasks-fixture';

/**
 * The pass that keeps the `GET /v2/apps` pieces of the embeds with tasks load balancers poll
 * (src/api/v2/lists-ahead.ts, app-json.ts `keepAppPiecesAhead`): nothing until such an embed
 * is read; then each app whose events paused is kept, encoded, for every polled embed (at most
 * two: a third read drops the oldest's encodings); what a read answers is the same as the objects
 * serialized, whether the pass ran or not.
 */

const TASKS = new Set(['apps.tasks']);
const TRAEFIK = new Set(['apps.tasks', 'apps.deployments', 'apps.readiness']);

/** A pacer with its own pass on `clock` (beside the route's, which real timers would run later). */
function fixture(t: Test, clock: ManualAheadClock): ApiFixture {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.teardown(keepListsAhead(fx.deps, clock));
  return fx;
}

async function poll(fx: ApiFixture, query: string): Promise<unknown> {
  const res = await fx.app.inject({ method: 'GET', url: `/v2/apps?${query}` });
  if (res.statusCode !== 200) throw new Error(res.body);
  return JSON.parse(res.body);
}

/** What the list must answer for `embed`: the apps' JSON objects, serialized (no kept text involved). */
function expected(fx: ApiFixture, embed: ReadonlySet<string>): unknown {
  const apps = [...fx.deps.scheduler.runSpecs()].filter((s) => s.kind === 'app').sort((a, b) => a.id.localeCompare(b.id));
  return { apps: JSON.parse(JSON.stringify(appsJson(fx.deps, apps as never, new Set([...embed, 'counts', 'deployments'])))) };
}

function kept(fx: ApiFixture, id: string, embed: ReadonlySet<string>): boolean {
  const spec = fx.deps.scheduler.runSpec(id);
  if (spec === undefined || spec.kind !== 'app') throw new Error(`no app ${id}`);
  return appPieceKeptEncoded(fx.deps, spec, embed);
}

function runAllTurns(clock: ManualAheadClock): void {
  clock.now += KEEP_AHEAD_QUIET_MS;
  while (clock.step()) { /* every turn */ }
}

t.test('once embed=apps.tasks is polled, each app is kept encoded after its statuses pause, and answered the same', async (t) => {
  const clock = new ManualAheadClock();
  const fx = fixture(t, clock);
  await poll(fx, 'embed=apps.tasks');
  launchRunning(fx, makeApp({ id: '/lb/a', instances: 3, cpus: 0.01, mem: 1, portDefinitions: [{ port: 10001, protocol: 'tcp', name: 'http', labels: {} }] }), makeOffer({ cpus: 64, mem: 65536 }));
  launchRunning(fx, makeApp({ id: '/lb/b', instances: 2, cpus: 0.01, mem: 1 }), makeOffer({ cpus: 64, mem: 65536 }));
  t.notOk(kept(fx, '/lb/a', TASKS), 'not kept before the quiet time');
  runAllTurns(clock);
  t.ok(kept(fx, '/lb/a', TASKS), '/lb/a kept and encoded by the pass');
  t.ok(kept(fx, '/lb/b', TASKS), '/lb/b too');
  t.same(await poll(fx, 'embed=apps.tasks'), expected(fx, TASKS), 'the poll answers what the objects serialize to');
  // A task fails: answered at once, with no pass in between.
  const [task] = fx.deps.scheduler.instances('/lb/b')[0].tasks;
  fx.harness.status(task.taskId, 'TASK_FAILED');
  t.notOk(kept(fx, '/lb/b', TASKS), 'the change leaves /lb/b\'s piece stale');
  t.same(await poll(fx, 'embed=apps.tasks'), expected(fx, TASKS), 'and the next poll shows it');
});

t.test('nothing is kept ahead before an embed with tasks has been read, and not for apps with health checks or over the bound', async (t) => {
  const clock = new ManualAheadClock();
  const fx = fixture(t, clock);
  // Another test file's reads may have made embeds polled: this one starts from a read of its own only where it says so.
  launchRunning(fx, makeApp({ id: '/q/checked', instances: 1, cpus: 0.01, mem: 1, healthChecks: [makeHealthCheck()] }), makeOffer());
  launchRunning(fx, makeApp({ id: '/q/big', instances: KEEP_AHEAD_MAX_APP_INSTANCES + 1, cpus: 0.001, mem: 0 }), ...Array.from({ length: 10 }, () => makeOffer({ cpus: 64, mem: 65536 })));
  await poll(fx, 'embed=apps.tasks');
  launchRunning(fx, makeApp({ id: '/q/small', instances: 1, cpus: 0.01, mem: 1 }), makeOffer());
  // Statuses for the big app after the poll: it is queued, and skipped.
  const big = fx.deps.scheduler.instances('/q/big').find((i) => i.tasks.length > 0);
  if (big !== undefined) fx.harness.status(big.tasks[0].taskId, 'TASK_FAILED');
  runAllTurns(clock);
  t.ok(kept(fx, '/q/small', TASKS), 'an app whose statuses came after the poll is kept');
  t.notOk(kept(fx, '/q/checked', TASKS), 'an app with health checks is not');
  t.notOk(kept(fx, '/q/big', TASKS), `an app of more than ${KEEP_AHEAD_MAX_APP_INSTANCES} instances is not`);
  t.same(await poll(fx, 'embed=apps.tasks'), expected(fx, TASKS), 'the poll is right all the same');
});

t.test(`at most ${POLLED_EMBEDS} embeds are kept encoded: a third drops the oldest`, async (t) => {
  const clock = new ManualAheadClock();
  const fx = fixture(t, clock);
  launchRunning(fx, makeApp({ id: '/e/a', instances: 2, cpus: 0.01, mem: 1 }), makeOffer());
  const third = new Set(['apps.tasks', 'apps.lastTaskFailure']);
  await poll(fx, 'embed=apps.tasks');
  await poll(fx, 'embed=apps.tasks&embed=apps.deployments&embed=apps.readiness');
  t.ok(kept(fx, '/e/a', TASKS) && kept(fx, '/e/a', TRAEFIK), 'both polled embeds answered from kept encodings');
  await poll(fx, 'embed=apps.tasks&embed=apps.lastTaskFailure');
  t.notOk(kept(fx, '/e/a', TASKS), 'the oldest embed\'s encodings are dropped');
  t.ok(kept(fx, '/e/a', TRAEFIK) && kept(fx, '/e/a', third), 'the two most recent are kept');
  for (const embed of [TASKS, TRAEFIK, third]) {
    t.same(await poll(fx, [...embed].map((e) => `embed=${e}`).join('&')), expected(fx, embed), `${[...embed].join(',')}: the answer`);
  }
});

t.test('the events that queue an app: its statuses, and the end of a deployment that changed it', (t) => {
  const cases: { name: string; event: Record<string, unknown>; apps: readonly string[] | undefined }[] = [
    { name: 'a status', event: { eventType: 'status_update_event', appId: '/a', taskId: 'a.instance-1._app.1' }, apps: ['/a'] },
    { name: 'a deployment that succeeded', event: { eventType: 'deployment_success', id: 'd', plan: { id: 'd', version: 'v', steps: [{ actions: [{ action: 'ScaleApplication', app: '/a' }] }, { actions: [{ action: 'StartApplication', app: '/b' }, { action: 'StartPod', pod: '/p' }] }] } }, apps: ['/a', '/b'] },
    { name: 'a deployment that failed', event: { eventType: 'deployment_failed', id: 'd', plan: { id: 'd', version: 'v', steps: [{ actions: [{ action: 'RestartApplication', app: '/c' }] }] } }, apps: ['/c'] },
    { name: 'a deployment that started', event: { eventType: 'deployment_info' }, apps: undefined },
    { name: 'an API request', event: { eventType: 'api_post_event' }, apps: undefined },
  ];
  for (const c of cases) t.same(appsAheadQueue(c.event as unknown as MarathonEvent), c.apps, c.name);
  t.end();
});

t.test('on a standby (no core) the pass neither throws nor keeps anything', async (t) => {
  const clock = new ManualAheadClock();
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  await poll(fx, 'embed=apps.tasks');
  const { deps, listeners } = standbyDeps();
  const stop = keepListsAhead(deps, clock);
  t.doesNotThrow(() => listeners[0]({ eventType: 'status_update_event', appId: '/x', taskId: 'x.instance-1._app.1' } as unknown as MarathonEvent));
  t.ok(clock.timer !== undefined, 'queued');
  runAllTurns(clock);
  t.equal(clock.timer, undefined, 'the turn left the app to the read');
  stop();
});
