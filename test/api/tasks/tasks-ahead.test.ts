import t from 'tap';
import type { Test } from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeApp, makeHealthCheck } from '../../builders/run-spec-builders';
import { makeOffer } from '../../builders/cluster-builders';
import { standbyDeps } from '../../builders/standby-deps';
import { ManualAheadClock } from '../../builders/manual-ahead-clock';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { appTasksKept, keepAppTasksAhead, listTasksJson } from '../../../src/api/v2/tasks/list-tasks';
import { keepListsAhead } from '../../../src/api/v2/lists-ahead';
import {
  KEEP_AHEAD_MAX_APP_INSTANCES, KEEP_AHEAD_QUIET_MS, KEEP_AHEAD_REST_FACTOR, KEEP_AHEAD_TURN_MS
} from '../../../src/api/render/keep-ahead';
import { launchRunning } from './tasks-fixture';

/**
 * The pass that keeps each app's piece of `GET /v2/tasks` ahead of the reads
 * (src/api/v2/lists-ahead.ts, its `GET /v2/tasks` half): an app is kept once its statuses have
 * paused for the quiet time, a turn stops at its budget and the next waits its rest, big apps
 * and apps with health checks are left to the read, and what a read answers is the same whether
 * the pass ran or not.
 */

/** Apps `/a0`…, each of `instances` instances Running, with `clock` keeping them ahead. */
function fixture(t: Test, apps: number, instances: number, clock: ManualAheadClock): { fx: ApiFixture; stop: () => void } {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const stop = keepListsAhead(fx.deps, clock);
  t.teardown(stop);
  for (let i = 0; i < apps; i++) launchRunning(fx, makeApp({ id: `/a${i}`, instances, cpus: 0.01, mem: 1 }), makeOffer({ cpus: 64, mem: 65536 }));
  return { fx, stop };
}

/** Whether the app's unfiltered piece is kept for the core's current token. */
function kept(fx: ApiFixture, id: string): boolean {
  const spec = fx.deps.scheduler.runSpec(id);
  if (spec === undefined) throw new Error(`no ${id}`);
  return appTasksKept(fx.deps, spec);
}

/** The ids of the kept apps among `/a0` … `/a{n-1}`. */
const keptOf = (fx: ApiFixture, n: number): string[] => Array.from({ length: n }, (_, i) => `/a${i}`).filter((id) => kept(fx, id));

t.test('an app is kept once its statuses have paused for the quiet time, not before', async (t) => {
  const clock = new ManualAheadClock();
  const { fx } = fixture(t, 1, 3, clock);
  t.ok(clock.timer !== undefined, 'the statuses set a timer');
  t.equal(clock.delays[0], KEEP_AHEAD_QUIET_MS, 'of the quiet time');
  // /a1's statuses come 100 ms later: /a0 is quiet first, /a1 later.
  clock.now = 100;
  launchRunning(fx, makeApp({ id: '/a1', instances: 3, cpus: 0.01, mem: 1 }), makeOffer({ cpus: 64, mem: 65536 }));
  t.ok(clock.step(), 'the timer fires');
  t.same(keptOf(fx, 2), ['/a0'], '/a0 kept by the pass at its quiet time, /a1 not yet');
  t.ok(clock.timer !== undefined, 'a timer for /a1\'s quiet time');
  t.equal(clock.timer?.atMs, 100 + KEEP_AHEAD_QUIET_MS, 'at /a1\'s last status + the quiet time');
  t.ok(clock.step());
  t.ok(kept(fx, '/a1'), '/a1 kept');
  t.equal(clock.timer, undefined, 'nothing left: no timer');
});

t.test('without the pass, the first read lists each app itself (the control)', async (t) => {
  const clock = new ManualAheadClock();
  const { fx, stop } = fixture(t, 2, 3, clock);
  stop();
  t.equal(clock.timer, undefined, 'stopping cancels the timer');
  t.same(keptOf(fx, 2), [], 'nothing kept');
  const a0 = fx.deps.scheduler.runSpec('/a0');
  t.equal(keepAppTasksAhead(fx.deps, a0 ?? makeApp()), 3, 'keeping /a0 looks at its three tasks');
  t.ok(kept(fx, '/a0'), 'and keeps it');
});

t.test('a turn stops at its budget and rests a multiple of its work before the next', async (t) => {
  const clock = new ManualAheadClock();
  const apps = 6;
  const { fx } = fixture(t, apps, 1, clock);
  clock.now = KEEP_AHEAD_QUIET_MS;
  // Every look at the clock costs 1 ms: a turn keeps TURN_MS apps.
  clock.costMs = 1;
  t.ok(clock.step());
  t.equal(keptOf(fx, apps).length, KEEP_AHEAD_TURN_MS, `one turn kept ${KEEP_AHEAD_TURN_MS} apps (1 ms each)`);
  t.equal(clock.delays.at(-1), KEEP_AHEAD_TURN_MS * KEEP_AHEAD_REST_FACTOR, 'then rests its work × the rest factor');
  clock.costMs = 0;
  t.ok(clock.step());
  t.equal(keptOf(fx, apps).length, apps, 'the next turn keeps the rest');
  t.equal(clock.timer, undefined, 'and sets no timer');
});

t.test('apps over the instance bound and apps with health checks are left to the read', async (t) => {
  const clock = new ManualAheadClock();
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.teardown(keepListsAhead(fx.deps, clock));
  launchRunning(fx, makeApp({ id: '/big', instances: KEEP_AHEAD_MAX_APP_INSTANCES + 1, cpus: 0.001, mem: 0 }), ...Array.from({ length: 80 }, () => makeOffer({ cpus: 64, mem: 65536 })));
  launchRunning(fx, makeApp({ id: '/checked', instances: 1, healthChecks: [makeHealthCheck()] }), makeOffer());
  t.equal(fx.deps.scheduler.instances('/big').length, KEEP_AHEAD_MAX_APP_INSTANCES + 1);
  clock.now = KEEP_AHEAD_QUIET_MS;
  while (clock.step()) { /* every turn */ }
  t.notOk(kept(fx, '/big'), '/big not kept ahead');
  const big = fx.deps.scheduler.runSpec('/big');
  const launched = fx.deps.scheduler.instances('/big').filter((i) => i.tasks.length > 0).length;
  t.ok(launched > 0, `${launched} of its instances launched (their statuses came)`);
  t.equal(keepAppTasksAhead(fx.deps, big ?? makeApp()), launched, 'though it could be kept: keeping it by hand looks at their tasks');
  t.notOk(kept(fx, '/checked'), '/checked not kept');
  const checked = fx.deps.scheduler.runSpec('/checked');
  t.equal(keepAppTasksAhead(fx.deps, checked ?? makeApp()), 0, 'an app with health checks is never kept: nothing to do');
  t.notOk(kept(fx, '/checked'), 'and still not kept');
});

t.test('the answer is the same with the pass as without, and a change after it is answered at once', async (t) => {
  const clock = new ManualAheadClock();
  const { fx } = fixture(t, 3, 4, clock);
  const expected = (): unknown => ({ tasks: listTasksJson(fx.deps, new Set()) });
  clock.now = KEEP_AHEAD_QUIET_MS;
  while (clock.step()) { /* every turn */ }
  for (const url of ['/v2/tasks', '/v2/tasks?status=running']) {
    const res = await fx.app.inject({ method: 'GET', url });
    t.same(JSON.parse(res.body), expected(), `${url}: every task`);
  }
  // A task of /a1 fails: the next read shows it, with no pass in between.
  const [task] = fx.deps.scheduler.instances('/a1')[0].tasks;
  fx.harness.status(task.taskId, 'TASK_FAILED');
  const res = await fx.app.inject({ method: 'GET', url: '/v2/tasks' });
  const tasks = (JSON.parse(res.body) as { tasks: { id: string; state: string }[] }).tasks;
  t.same(JSON.parse(res.body), expected(), 'the answer after the change');
  t.notOk(tasks.some((x) => x.id === task.taskId && x.state === 'TASK_RUNNING'), 'the failed task is not answered Running');
});

t.test('on a standby (no core) the pass neither throws nor keeps anything', (t) => {
  const clock = new ManualAheadClock();
  const { deps, listeners } = standbyDeps();
  const stop = keepListsAhead(deps, clock);
  t.doesNotThrow(() => listeners[0]({ eventType: 'status_update_event', appId: '/x', taskId: 'x.instance-1._app.1' } as unknown as MarathonEvent));
  clock.now = KEEP_AHEAD_QUIET_MS;
  t.doesNotThrow(() => clock.step(), 'the turn leaves the app to the read');
  stop();
  t.end();
});
