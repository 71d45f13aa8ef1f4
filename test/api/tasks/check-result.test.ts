import t from 'tap';
import { makeApi } from '../api-fixture';
import type { CheckStatus } from '../../../src/scheduler/model/checks';
import { instanceToStored } from '../../../src/store/records/stored-instance';
import { makeApp } from '../../builders/run-spec-builders';
import { body, launchRunning, type TaskWire } from './tasks-fixture';

/**
 * A task's `checkResult` (fact 40; Marathon's TaskConversion): the latest result of its Mesos check
 * as the cluster's status updates report it, in `/v2/tasks`, `/v2/apps/{id}/tasks` and
 * `embed=apps.tasks`; absent while there is none.
 */

const CHECKED = makeApp({ id: '/web', check: { tcp: { portIndex: 0 } }, hostPorts: [0], portDefinitions: [{ port: 0, protocol: 'tcp', labels: {} }] });

async function taskViews(fx: ReturnType<typeof makeApi>): Promise<TaskWire[]> {
  const all = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/tasks' })).tasks;
  const app = body<{ tasks: TaskWire[] }>(await fx.app.inject({ method: 'GET', url: '/v2/apps/web/tasks' })).tasks;
  const embedded = body<{ apps: { tasks: TaskWire[] }[] }>(await fx.app.inject({ method: 'GET', url: '/v2/apps?embed=apps.tasks' })).apps[0].tasks;
  return [all[0], app[0], embedded[0]];
}

t.test('each update with a check status sets the result; one without keeps it; an empty one clears it', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [launch] = launchRunning(fx, CHECKED);
  const id = launch.taskId;
  const steps: [string, CheckStatus | undefined, unknown][] = [
    ['running, no check status yet: no checkResult', undefined, undefined],
    ['an empty status (no result yet): none', { tcp: {} }, undefined],
    ['tcp succeeded', { tcp: { succeeded: true } }, { tcp: { succeeded: true } }],
    ['an update without a check status keeps it', undefined, { tcp: { succeeded: true } }],
    ['tcp failed', { tcp: { succeeded: false } }, { tcp: { succeeded: false } }],
    ['http status code', { http: { statusCode: 503 } }, { http: { statusCode: 503 } }],
    ['command exit code', { command: { exitCode: 0 } }, { command: { exitCode: 0 } }],
    ['an exit code out of int32 shows nothing', { command: { exitCode: 2 ** 40 } }, undefined],
    ['http again', { http: { statusCode: 200 } }, { http: { statusCode: 200 } }],
    ['timed out (empty): none', { http: {} }, undefined],
  ];
  for (const [name, checkStatus, want] of steps) {
    fx.harness.status(id, 'TASK_RUNNING', checkStatus === undefined ? {} : { checkStatus, reason: 'REASON_TASK_CHECK_STATUS_UPDATED' });
    for (const [i, view] of (await taskViews(fx)).entries()) {
      t.same(view.checkResult, want, `${name} (${['/v2/tasks', '/v2/apps/web/tasks', 'embed=apps.tasks'][i]})`);
      t.equal('checkResult' in view, want !== undefined, `${name}: present only with a result`);
    }
  }
});

t.test('checkResult is the last key, after region and zone (fact 40)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [launch] = launchRunning(fx, CHECKED);
  fx.harness.status(launch.taskId, 'TASK_RUNNING', { checkStatus: { command: { exitCode: 3 } } });
  const text = (await fx.app.inject({ method: 'GET', url: '/v2/apps/web/tasks' })).body;
  t.match(text, /"role":"[^"]*"(,"[a-zA-Z]+":[^,]+)*,"checkResult":\{"command":\{"exitCode":3\}\}\}\]\}$/);
});

t.test('a check result is not stored: a change writes nothing, and the store\'s record of the task has no such field', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const [launch] = launchRunning(fx, CHECKED);
  const writes = (): number => fx.harness.effects.filter((e) => e.kind === 'store').length;
  const before = writes();
  fx.harness.status(launch.taskId, 'TASK_RUNNING', { checkStatus: { tcp: { succeeded: true } } });
  t.equal(writes(), before, 'no store write for a check result');
  const inst = fx.deps.scheduler.instances('/web')[0];
  t.same(inst.tasks[0].checkResult, { tcp: { succeeded: true } });
  t.notMatch(JSON.stringify(instanceToStored(inst)), /checkResult/);
});
