import t from 'tap';
import { standbyDeps } from '../../builders/standby-deps';
import { renderTaskTextsAhead } from '../../../src/api/render/task-text-ahead';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { hasCurrentTaskText, taskJson, taskText } from '../../../src/api/render/task-json';
import { servicePortsOf } from '../../../src/scheduler/index';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import { makeOffer } from '../../builders/cluster-builders';
import { apiFor, appBody, call, created } from '../apps/apps-kit';
import type { ApiFixture } from '../api-fixture';
import { ManualAheadClock } from '../../builders/manual-ahead-clock';
import { keepListsAhead } from '../../../src/api/v2/lists-ahead';
import { KEEP_AHEAD_QUIET_MS } from '../../../src/api/render/keep-ahead';

/**
 * The API renders a task's text ahead of the reads, so that the first `GET /v2/tasks` after a
 * deployment finds it kept: when the core reports the task Running (render/task-text-ahead.ts),
 * and for the states a task passes through, in the lists' pass once the app's statuses pause
 * (v2/lists-ahead.ts), not at every status. After each status update (and for the passing states,
 * the pass), with no read in between, every task of the app has a kept text that is right for it
 * as it is now, and it is what the objects serialize to.
 */
t.test('a task\'s text is rendered before any read: at Running by the listener, otherwise by the pass', async (t) => {
  const fx = apiFor(t);
  const clock = new ManualAheadClock();
  t.teardown(keepListsAhead(fx.deps, clock));
  await created(t, fx, appBody({ id: '/ahead', instances: 3, portDefinitions: [{ port: 0 }] }));
  fx.harness.offer(makeOffer());
  const ids = fx.deps.scheduler.instances('/ahead').flatMap((i) => i.tasks.map((task) => task.taskId));
  t.equal(ids.length, 3, 'three tasks launched');
  const states: readonly TaskState[] = ['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING'];
  for (const state of states) {
    for (const id of ids) fx.harness.status(id, state);
    if (state !== 'TASK_RUNNING') {
      t.notOk(fx.deps.scheduler.instances('/ahead').some((inst) => inst.tasks.some((task) => hasCurrentTaskText(inst, task, portsTextOf(fx)))), `${state}: not rendered at the status (the pass renders it)`);
      clock.now += KEEP_AHEAD_QUIET_MS;
      while (clock.step()) { /* every turn */ }
    }
    const portsText = portsTextOf(fx);
    for (const inst of fx.deps.scheduler.instances('/ahead')) {
      for (const task of inst.tasks) {
        t.ok(hasCurrentTaskText(inst, task, portsText), `${state}: ${task.taskId} kept before a read`);
        t.equal(taskText(fx.deps, inst, task, portsText), JSON.stringify(taskJson(fx.deps, inst, task, { servicePorts: JSON.parse(portsText) as number[] })), `${state}: its text`);
      }
    }
  }
  const res = await call(fx, 'GET', '/v2/tasks');
  t.equal(res.status, 200);
  t.equal((res.json.tasks as unknown[]).length, 3, 'the list shows them');
});

/** The app's service ports as the task texts show them. */
function portsTextOf(fx: ApiFixture): string {
  const spec = fx.deps.scheduler.runSpec('/ahead');
  return JSON.stringify(spec?.kind === 'app' ? servicePortsOf(spec) : []);
}

/**
 * With HA the routes are built on a standby, whose `deps.scheduler` throws (no core leads here), and
 * each term's core is a new object: rendering ahead subscribes through `deps.subscribeCore`, which
 * follows the terms, never through `deps.scheduler` at set-up.
 */
t.test('rendering ahead subscribes through subscribeCore when the deps have it (a standby has no core)', (t) => {
  const { deps, listeners, unsubscribed } = standbyDeps();
  const stop = renderTaskTextsAhead(deps);
  t.equal(listeners.length, 1, 'subscribed once through subscribeCore');
  t.doesNotThrow(() => listeners[0]({ eventType: 'status_update_event', taskId: 'app.instance-1.1' } as unknown as MarathonEvent), 'an event while no core leads is left to the read');
  stop();
  t.equal(unsubscribed(), 1, 'the returned function unsubscribes');
  t.end();
});
