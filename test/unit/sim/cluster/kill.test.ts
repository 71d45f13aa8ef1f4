import t from 'tap';
import { groupOp, Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

t.test('kill with task_killing: TASK_KILLING now, TASK_KILLED when the task exits (shutdown < grace)', async (t) => {
  const h = new Harness({ taskKilling: true });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const k = h.now;
  h.cluster.kill('t1', 'a1', 5000);
  h.runFor(10_000);
  t.same(h.timeline('t1', k), ['TASK_KILLING@0', 'TASK_KILLED@1000'], 'shutdown 1000 < grace 5000');
  t.same(h.cluster.liveTasks(), []);
  t.same(h.cluster.agentUsage('a1')[0].cpusMilli, 0, 'resources of terminal tasks are freed');
  t.match(h.trace.find((l) => l.includes('"op":"kill"')), /"task":"t1","agent":"a1","graceMs":5000/);
});

t.test('kill without task_killing: no TASK_KILLING; SIGKILL at grace end when the task is slower', async (t) => {
  const h = new Harness({ taskKilling: false });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const k = h.now;
  h.cluster.kill('t1', 'a1', 400);
  h.runFor(10_000);
  t.same(h.timeline('t1', k), ['TASK_KILLED@400'], 'grace 400 < shutdown 1000');
});

t.test('a second kill of a single task may shorten the grace period, never lengthen it', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const k = h.now;
  h.cluster.kill('t1', 'a1', 5000);
  h.runFor(100);
  h.cluster.kill('t1', 'a1', 50_000);
  h.runFor(100);
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(10_000);
  t.same(h.timeline('t1', k), ['TASK_KILLING@0', 'TASK_KILLED@200']);
});

t.test('kill while staging → TASK_KILLED with REASON_TASK_KILLED_DURING_LAUNCH; starting → normal kill', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1')), launchOp(taskLaunch('t2', 'a1')), launchOp(taskLaunch('t3', 'a1'))]);
  h.cluster.kill('t1', 'a1', 3000);
  h.runFor(150);
  h.cluster.kill('t2', 'a1', 3000);
  h.runFor(250);
  h.cluster.kill('t3', 'a1', 3000);
  h.runFor(10_000);
  t.same(h.timeline('t1', t0), ['TASK_KILLED@0 REASON_TASK_KILLED_DURING_LAUNCH'], 'before STAGING was even sent');
  t.same(h.timeline('t2', t0), ['TASK_STAGING@100', 'TASK_KILLED@150 REASON_TASK_KILLED_DURING_LAUNCH']);
  t.same(h.timeline('t3', t0), ['TASK_STAGING@100', 'TASK_STARTING@300', 'TASK_KILLING@400', 'TASK_KILLED@1400'], 'never reaches RUNNING');
  t.ok(h.statuses('t1')[0].uuid, 'agent-generated: reliable');
});

t.test('killing one task of a group kills every task of the group', async (t) => {
  const h = new Harness();
  startAndAccept(h, [groupOp('e1', [taskLaunch('p1', 'a1'), taskLaunch('p2', 'a1'), taskLaunch('p3', 'a1')])]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const k = h.now;
  h.cluster.kill('p2', 'a1', 3000);
  h.runFor(10_000);
  for (const id of ['p1', 'p2', 'p3']) t.same(h.timeline(id, k), ['TASK_KILLING@0', 'TASK_KILLED@1000'], id);
  t.same(h.cluster.agentUsage('a1')[0].cpusMilli, 0);
});

t.test('kill of a group while staging kills the whole group during launch', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [groupOp('e1', [taskLaunch('p1', 'a1'), taskLaunch('p2', 'a1')])]);
  h.runFor(150);
  h.cluster.kill('p1', 'a1', 3000);
  h.runFor(10_000);
  t.same(h.timeline('p1', t0), ['TASK_STAGING@100', 'TASK_KILLED@150 REASON_TASK_KILLED_DURING_LAUNCH']);
  t.same(h.timeline('p2', t0), ['TASK_STAGING@100', 'TASK_KILLED@150 REASON_TASK_KILLED_DURING_LAUNCH']);
});

t.test('kill with a wrong agent id is ignored; kill of an unknown task is answered by reconciliation', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const k = h.now;
  h.cluster.kill('t1', 'a9', 0);
  h.cluster.kill('ghost', 'a1', 0);
  h.cluster.kill('ghost2', undefined, 0);
  h.runFor(5000);
  t.same(h.timeline('t1', k), []);
  t.same(h.timeline('ghost', k), ['TASK_GONE@0 REASON_RECONCILIATION']);
  t.same(h.timeline('ghost2', k), ['TASK_UNKNOWN@0 REASON_RECONCILIATION']);
});

t.test('kill of a finished task does nothing', async (t) => {
  const h = new Harness({ autoAck: false });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(1);
  const n = h.statuses('t1').length;
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(5000);
  t.equal(h.statuses('t1').length, n);
});
