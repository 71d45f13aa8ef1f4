import t from 'tap';
import type { LaunchCheck } from '../../../../src/scheduler/model/launch';
import { makeTaskLaunch } from '../../../builders/launch-builders';
import { Harness, launchOp, res, RUNNING_AFTER_MS, startAndAccept } from './harness';

/**
 * The simulator's executors and a task's `check` (docs/scenario-format.md): always passing, one
 * update `delayMs` after the task runs with REASON_TASK_CHECK_STATUS_UPDATED and the passing result
 * of its kind, none after; nothing for a task without a check; nothing once it is killed.
 */

const TIMING = { delayMs: 2000, intervalMs: 10_000, timeoutMs: 1000 };

function checked(taskId: string, check: LaunchCheck | undefined) {
  return makeTaskLaunch({ taskId, agentId: 'a1', runSpecId: '/app', role: '*', resources: res(0.5, 128), hostPorts: [], killGracePeriodMs: 100, ...(check === undefined ? {} : { check }) });
}

t.test('the passing result of each kind, once, at RUNNING + delay; then nothing is scheduled', async (t) => {
  const table: [string, LaunchCheck | undefined, unknown][] = [
    ['http', { ...TIMING, kind: 'http', port: 31000 }, { http: { statusCode: 200 } }],
    ['tcp', { ...TIMING, kind: 'tcp', port: 31000 }, { tcp: { succeeded: true } }],
    ['command', { ...TIMING, kind: 'command', command: { shell: 'true' } }, { command: { exitCode: 0 } }],
    ['no check', undefined, undefined],
  ];
  for (const [name, check, want] of table) {
    const h = new Harness();
    const t0 = startAndAccept(h, [launchOp(checked('t1', check))], 'a1', 3_600_000);
    h.runFor(RUNNING_AFTER_MS + TIMING.delayMs + 1);
    const updates = h.statuses('t1').filter((s) => s.checkStatus !== undefined);
    if (want === undefined) {
      t.same(updates, [], `${name}: no check update`);
      continue;
    }
    t.same(updates.map((s) => [s.t - t0, s.state, s.reason, s.checkStatus]), [[RUNNING_AFTER_MS + TIMING.delayMs, 'TASK_RUNNING', 'REASON_TASK_CHECK_STATUS_UPDATED', want]], name);
    const events = h.simEvents;
    h.runFor(3_000_000);
    t.equal(h.simEvents, events, `${name}: nothing scheduled afterwards`);
  }
});

t.test('a task killed before its check is due reports no check result', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(checked('t1', { ...TIMING, kind: 'tcp', port: 31000 }))], 'a1', 3_600_000);
  h.runFor(RUNNING_AFTER_MS + 10);
  h.cluster.kill('t1', 'a1', 100);
  h.runFor(60_000);
  t.same(h.statuses('t1').filter((s) => s.checkStatus !== undefined), []);
});
