import t from 'tap';
import { groupOp, Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

const H = 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED';

t.test('healthy responder: one first result, then no loop entries at all', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { delayMs: 1000, intervalMs: 10_000 } }))], 'a1', 3_600_000);
  h.runFor(RUNNING_AFTER_MS + 1000);
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_RUNNING@${RUNNING_AFTER_MS + 1000} ${H} healthy=true`], 'first check at RUNNING + delay');
  const events = h.simEvents;
  h.runFor(3_000_000);
  t.equal(h.simEvents, events, 'nothing scheduled while nothing can change');
  t.equal(h.statuses('t1').length, 4);
});

t.test('health flips: every failure is reported; killed at maxConsecutiveFailures with healthy=false', async (t) => {
  const h = new Harness({ startMs: 0 });
  h.cluster.setHealthModel('/app', { kind: 'failingFrom', fromMs: 35_000 });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { killGracePeriodMs: 500, healthCheck: { intervalMs: 10_000, maxConsecutiveFailures: 3 } }))]);
  h.runFor(120_000);
  t.same(h.timeline('t1', t0).slice(2), [
    'TASK_RUNNING@600',
    `TASK_RUNNING@600 ${H} healthy=true`,
    `TASK_RUNNING@40600 ${H} healthy=false`,
    `TASK_RUNNING@50600 ${H} healthy=false`,
    `TASK_RUNNING@60600 ${H} healthy=false`,
    'TASK_KILLING@60600',
    'TASK_KILLED@61100 healthy=false',
  ], 'checks skipped while passing resume on the grid when the model can change');
  t.same(h.cluster.liveTasks(), []);
});

t.test('maxConsecutiveFailures 0 kills at the first counted failure', async (t) => {
  const h = new Harness({ taskKilling: false });
  h.cluster.setHealthModel('/app', { kind: 'status', status: 503 });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { killGracePeriodMs: 100, healthCheck: { maxConsecutiveFailures: 0 } }))]);
  h.runFor(60_000);
  t.same(h.timeline('t1', t0).slice(3), [`TASK_RUNNING@600 ${H} healthy=false`, 'TASK_KILLED@700 healthy=false']);
});

t.test('failures inside the grace period are ignored until the first success', async (t) => {
  const h = new Harness({ startMs: 0 });
  h.cluster.setHealthModel('/app', { kind: 'failingDuring', fromMs: 0, toMs: 25_000 });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { gracePeriodMs: 30_000, intervalMs: 10_000, maxConsecutiveFailures: 1 } }))]);
  h.runFor(120_000);
  t.same(h.timeline('t1', t0).slice(3), [`TASK_RUNNING@30600 ${H} healthy=true`], 'three ignored failures, then healthy');
  t.equal(h.cluster.liveTasks().length, 1);
});

t.test('failures after the first success count even inside the grace period; recovery resets the count', async (t) => {
  const h = new Harness({ startMs: 0 });
  h.cluster.setHealthModel('/app', { kind: 'failingDuring', fromMs: 5000, toMs: 25_000 });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { gracePeriodMs: 300_000, intervalMs: 10_000, maxConsecutiveFailures: 3 } }))]);
  h.runFor(120_000);
  t.same(h.timeline('t1', t0).slice(3), [
    `TASK_RUNNING@600 ${H} healthy=true`,
    `TASK_RUNNING@10600 ${H} healthy=false`,
    `TASK_RUNNING@20600 ${H} healthy=false`,
    `TASK_RUNNING@30600 ${H} healthy=true`,
  ]);
  t.equal(h.cluster.liveTasks().length, 1, 'two failures < 3');
});

t.test('a health model change re-evaluates running tasks at their next check time', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { intervalMs: 10_000, maxConsecutiveFailures: 5 } }))]);
  h.runFor(45_000);
  h.cluster.setHealthModel('/app', { kind: 'status', status: 500 });
  h.runFor(10_000);
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_RUNNING@50600 ${H} healthy=false`]);
  h.cluster.setHealthModel('/app', { kind: 'healthy' });
  h.runFor(10_000);
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_RUNNING@60600 ${H} healthy=true`]);
});

t.test('slow answers: beyond the timeout fail, within pass; TCP checks pass on any answer', async (t) => {
  const h = new Harness();
  h.cluster.setHealthModel('/slow', { kind: 'slow', latencyMs: 3000 });
  h.cluster.setHealthModel('/ok', { kind: 'slow', latencyMs: 1000 });
  h.cluster.setHealthModel('/tcp', { kind: 'status', status: 500 });
  const hc = { timeoutMs: 2000, maxConsecutiveFailures: 100 };
  startAndAccept(h, [
    launchOp(taskLaunch('slow', 'a1', { runSpecId: '/slow', healthCheck: hc })),
    launchOp(taskLaunch('ok', 'a1', { runSpecId: '/ok', healthCheck: hc })),
    launchOp(taskLaunch('tcp', 'a1', { runSpecId: '/tcp', healthCheck: { ...hc, protocol: 'MESOS_TCP' } })),
  ]);
  h.runFor(5000);
  t.same(h.statuses('slow').slice(-1).map((s) => s.healthy), [false]);
  t.same(h.statuses('ok').slice(-1).map((s) => s.healthy), [true]);
  t.same(h.statuses('tcp').slice(-1).map((s) => s.healthy), [true]);
});

t.test('flaky responders draw from the health stream', async (t) => {
  const h = new Harness({ seed: 7 });
  h.cluster.setHealthModel('/app', { kind: 'flaky', p: 0.5 });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { intervalMs: 1000, maxConsecutiveFailures: 1000 } }))]);
  h.runFor(100_000);
  const results = h.statuses('t1').filter((s) => s.healthy !== undefined);
  const fails = results.filter((s) => s.healthy === false).length;
  t.ok(fails > 20 && fails < 80, `about half of 100 checks fail (${fails})`);
  t.ok(results.some((s) => s.healthy === true));
});

t.test('flaky checks cost loop entries per failure, not per check, at the configured rate', async (t) => {
  const h = new Harness({ seed: 3 });
  h.cluster.setHealthModel('/app', { kind: 'flaky', p: 0.1 });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { intervalMs: 1000, maxConsecutiveFailures: 1_000_000 } }))], 'a1', 1e9);
  h.runFor(RUNNING_AFTER_MS);
  const events = h.simEvents;
  h.runFor(2_000_000);
  const fails = h.statuses('t1').filter((s) => s.healthy === false).length;
  t.ok(fails > 150 && fails < 250, `about 10% of 2000 checks fail (${fails})`);
  t.ok(h.simEvents - events <= 2 * fails + 2, `one check per failure plus one per recovery (${h.simEvents - events})`);
  const fails2 = h.statuses('t1').filter((s, i, all) => s.healthy === false && all[i - 1]?.healthy === false).length;
  t.ok(fails2 > 5, 'consecutive failures happen (p² per pair)');
});

t.test('an unhealthy task of a group is killed with its group', async (t) => {
  const h = new Harness();
  h.cluster.setHealthModel('/a', { kind: 'status', status: 500 });
  const t0 = startAndAccept(h, [groupOp('e1', [
    taskLaunch('p1', 'a1', { runSpecId: '/a', healthCheck: { maxConsecutiveFailures: 1 } }),
    taskLaunch('p2', 'a1', { runSpecId: '/b' }),
  ])]);
  h.runFor(10_000);
  t.same(h.timeline('p1', t0).slice(-2), ['TASK_KILLING@600', 'TASK_KILLED@1600 healthy=false']);
  t.same(h.timeline('p2', t0).slice(-2), ['TASK_KILLING@600', 'TASK_KILLED@1600']);
});

t.test('health updates during a short partition are held and delivered on reconnect', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1', { healthCheck: { intervalMs: 10_000, maxConsecutiveFailures: 10 } }))]);
  h.runFor(5000);
  h.cluster.partitionAgent('a1');
  h.cluster.setHealthModel('/app', { kind: 'status', status: 500 });
  h.runFor(20_000);
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_RUNNING@600 ${H} healthy=true`]);
  h.cluster.healAgent('a1');
  h.runFor(0);
  t.same(h.timeline('t1', t0).slice(-2), [`TASK_RUNNING@25000 ${H} healthy=false`, `TASK_RUNNING@25000 ${H} healthy=false`]);
});
