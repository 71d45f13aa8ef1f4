import t from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeApp, versionAt } from '../../builders/run-spec-builders';
import { body, launchRunning } from './tasks-fixture';

/*
 * Kill-and-scale under a lock, through every route that does it (facts 48, 55, 56, 58): Marathon's
 * `force` defaults to false, so while a deployment holds the app the request is refused with 409
 * and the locking deployments, and nothing is killed; with `force=true` the held deployment is
 * canceled and the kill-and-scale goes through. The refused plan is reported failed
 * (`deployment_failed`, then `group_change_failed`), as for any change refused for a lock (fact 7). (pacer once killed first and deployed with force,
 * silently canceling e.g. a rolling restart; test/unit/scheduler/deployments/executor.test.ts has
 * the core's side.)
 */

interface Route {
  readonly name: string;
  /** The app's target after a forced kill-and-scale of 2 instances (the host form kills both running tasks). */
  readonly after: number;
  readonly send: (fx: ApiFixture, taskId: string, force: boolean) => Promise<{ readonly statusCode: number; readonly body: string }>;
}

const flags = (force: boolean): string => `scale=true${force ? '&force=true' : ''}`;

const routes: readonly Route[] = [
  { name: 'DELETE /v2/apps/{id}/tasks/{taskId}?scale=true', after: 1, send: (fx, taskId, force) => fx.app.inject({ method: 'DELETE', url: `/v2/apps/web/tasks/${taskId}?${flags(force)}` }) },
  { name: 'DELETE /v2/apps/{id}/tasks?host=*&scale=true', after: 0, send: (fx, _taskId, force) => fx.app.inject({ method: 'DELETE', url: `/v2/apps/web/tasks?host=*&${flags(force)}` }) },
  {
    name: 'POST /v2/tasks/delete?scale=true',
    after: 1,
    send: (fx, taskId, force) => fx.app.inject({
      method: 'POST', url: `/v2/tasks/delete?${flags(force)}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ids: [taskId] }),
    }),
  },
];

/** /web with 2 running v1 instances, then a rolling restart to v2 that waits for offers. */
function restarting(): { fx: ApiFixture; taskId: string; restartId: string } {
  const fx = makeApi();
  const upgrade = { minimumHealthCapacity: 1, maximumOverCapacity: 1 };
  const [first] = launchRunning(fx, makeApp({ id: '/web', instances: 2, upgrade }));
  const restart = fx.harness.put(makeApp({ id: '/web', instances: 2, upgrade, cmd: 'v2', version: versionAt(60) }));
  if (!restart.ok || restart.deploymentId === undefined) throw new Error('the restart was refused');
  return { fx, taskId: first.taskId, restartId: restart.deploymentId };
}

function runningIds(fx: ApiFixture): string[] {
  return fx.harness.scheduler.deployments().map((d) => d.deployment.plan.id);
}

for (const route of routes) {
  t.test(`${route.name} during a rolling restart → 409 with the restart; nothing killed, nothing canceled`, async (t) => {
    const { fx, taskId, restartId } = restarting();
    t.teardown(() => fx.app.close());
    const res = await route.send(fx, taskId, false);
    t.equal(res.statusCode, 409, res.body);
    t.match(body(res), { message: /App is locked by one or more deployments\. Override with the option '\?force=true'/, deployments: [{ id: restartId }] });
    t.same(fx.harness.calls('kill'), [], 'nothing killed');
    t.same(runningIds(fx), [restartId], 'the rolling restart goes on');
    const failed = fx.harness.events('deployment_failed');
    t.notOk(failed.some((e) => e.id === restartId), 'nothing canceled');
    // As Marathon does for a change refused so (fact 7): the refused plan fails, then the change.
    t.match(failed, [{ reason: /locked/, plan: { steps: [{ actions: [{ action: 'ScaleApplication', app: '/web' }] }] } }], 'the refused kill-and-scale plan is reported failed');
    t.match(fx.harness.events('group_change_failed'), [{ groupId: '/', reason: /locked/ }]);
    t.equal(fx.harness.scheduler.runSpec('/web')?.instances, 2, 'the target is unchanged');
  });

  t.test(`${route.name}&force=true during a rolling restart → 200; the restart is canceled, the app scaled down`, async (t) => {
    const { fx, taskId, restartId } = restarting();
    t.teardown(() => fx.app.close());
    const res = await route.send(fx, taskId, true);
    t.equal(res.statusCode, 200, res.body);
    t.match(body(res), { deploymentId: /^[0-9a-f-]{36}$/, version: fx.harness.scheduler.root().version });
    t.ok(fx.harness.calls('kill').some((k) => k.taskId === taskId), 'the task is killed');
    t.match(fx.harness.events('deployment_failed'), [{ id: restartId }], 'the rolling restart is canceled');
    t.notOk(runningIds(fx).includes(restartId));
    t.equal(fx.harness.scheduler.root().apps.get('/web')?.instances, route.after, 'the root holds the lowered count');
    t.equal(fx.harness.scheduler.runSpec('/web')?.instances, route.after, 'and so does the run spec');
  });
}
