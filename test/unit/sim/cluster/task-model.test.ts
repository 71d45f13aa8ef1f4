import t from 'tap';
import { groupOp, Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

t.test('exitAfter with TASK_FAILED: a crash after the drawn delay from RUNNING', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'exitAfter', afterMs: [5000, 5000], state: 'TASK_FAILED' });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(60_000);
  t.same(h.timeline('t1', t0), ['TASK_STAGING@100', 'TASK_STARTING@300', 'TASK_RUNNING@600', 'TASK_FAILED@5600']);
  t.same(h.cluster.liveTasks(), []);
  t.equal(h.cluster.agentUsage('a1')[0].cpusMilli, 0);
});

t.test('exitAfter with TASK_FINISHED', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'exitAfter', afterMs: [10, 10], state: 'TASK_FINISHED' });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(60_000);
  t.same(h.timeline('t1', t0).slice(-1), ['TASK_FINISHED@610']);
});

t.test('failToStart: never RUNNING, TASK_FAILED after the drawn delay from launch', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'failToStart', afterMs: [2000, 2000] });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1')), launchOp(taskLaunch('t2', 'a1', { runSpecId: '/other' }))]);
  h.runFor(60_000);
  t.same(h.timeline('t1', t0), ['TASK_STAGING@100', 'TASK_STARTING@300', 'TASK_FAILED@2000 REASON_CONTAINER_LAUNCH_FAILED']);
  t.same(h.timeline('t2', t0).slice(-1), ['TASK_RUNNING@600'], 'models are per run spec');
});

t.test('failToStart earlier than STAGING fails the task right away', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'failToStart', afterMs: [50, 50] });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(60_000);
  t.same(h.timeline('t1', t0), ['TASK_FAILED@50 REASON_CONTAINER_LAUNCH_FAILED']);
});

t.test('a failed task of a group makes the default executor kill the rest; FINISHED does not', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/pod', { kind: 'exitAfter', afterMs: [1000, 1000], state: 'TASK_FAILED' });
  const t0 = startAndAccept(h, [
    groupOp('e1', [taskLaunch('p1', 'a1', { runSpecId: '/pod', killGracePeriodMs: 300 }), taskLaunch('p2', 'a1', { runSpecId: '/pod', killGracePeriodMs: 300 })]),
  ]);
  h.runFor(60_000);
  t.same(h.timeline('p1', t0).slice(2), ['TASK_RUNNING@600', 'TASK_FAILED@1600']);
  t.same(h.timeline('p2', t0).slice(2), ['TASK_RUNNING@600', 'TASK_KILLING@1600', 'TASK_KILLED@1900'], 'sibling killed (the exit timer of p2 was at the same time but the group kill came first)');

  const h2 = new Harness();
  h2.cluster.setTaskModel('/pod', { kind: 'exitAfter', afterMs: [1000, 1000], state: 'TASK_FINISHED' });
  h2.cluster.setTaskModel('/pod2', { kind: 'runForever' });
  const t1 = startAndAccept(h2, [groupOp('e1', [taskLaunch('p1', 'a1', { runSpecId: '/pod' }), taskLaunch('p2', 'a1', { runSpecId: '/pod2' })])]);
  h2.runFor(60_000);
  t.same(h2.timeline('p1', t1).slice(-1), ['TASK_FINISHED@1600']);
  t.same(h2.timeline('p2', t1).slice(-1), ['TASK_RUNNING@600'], 'a finished sibling leaves the others alone');
});

t.test('a task model change applies to running tasks', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(10_000);
  h.cluster.setTaskModel('/app', { kind: 'exitAfter', afterMs: [500, 500], state: 'TASK_FAILED' });
  h.runFor(10_000);
  t.same(h.timeline('t1', t0).slice(-1), ['TASK_FAILED@10500']);
});

t.test('a task stuck before RUNNING (failToStart) starts when the model changes back', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'failToStart', afterMs: [100_000, 100_000] });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 1000);
  h.cluster.setTaskModel('/app', { kind: 'runForever' });
  h.runFor(200_000);
  t.same(h.timeline('t1', t0), ['TASK_STAGING@100', 'TASK_STARTING@300', 'TASK_RUNNING@1600']);
});
