import t from 'tap';
import { agent, Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

const PING = 75_000;

t.test('partition: offer rescinded now, no offers, TASK_UNREACHABLE (REASON_AGENT_REMOVED) after the ping timeout', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  h.cluster.start();
  h.runFor(0);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('t1', 'a1'))], 0);
  h.runFor(5000);
  const offersOnA1 = h.offersSince(0).filter((o) => o.agent.agentId === 'a1').length;
  const p = h.now;
  h.cluster.partitionAgent('a1');
  h.runFor(0);
  t.same(h.inputsOfType('rescind').map((r) => r.t), [p], 'outstanding offer rescinded at once');
  h.runUntil(p + PING - 1);
  t.same(h.timeline('t1', p), []);
  h.runUntil(p + PING);
  t.same(h.timeline('t1', p), [`TASK_UNREACHABLE@${PING} REASON_AGENT_REMOVED`]);
  t.equal(h.statuses('t1').slice(-1)[0].uuid, undefined, 'master-generated');
  h.runFor(100_000);
  t.equal(h.offersSince(0).filter((o) => o.agent.agentId === 'a1').length, offersOnA1, 'no offers while partitioned');
  t.same(h.cluster.liveTasks().map((x) => [x.taskId, x.state]), [['t1', 'TASK_RUNNING']], 'the task still runs on the agent');
  t.same(h.cluster.agentStatus('a1'), { phase: 'unreachable', dead: false });
});

t.test('heal after the ping timeout: current state with REASON_AGENT_REREGISTERED; offers resume', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))], 'a1', 0);
  h.runFor(5000);
  const p = h.now;
  h.cluster.partitionAgent('a1');
  h.runFor(PING + 10_000);
  const offers = h.offerBatches().length;
  h.cluster.healAgent('a1');
  h.runFor(1000);
  t.same(h.timeline('t1', p), [`TASK_UNREACHABLE@${PING} REASON_AGENT_REMOVED`, `TASK_RUNNING@${PING + 10_000} REASON_AGENT_REREGISTERED`]);
  t.equal(h.statuses('t1').slice(-1)[0].uuid, undefined);
  t.ok(h.offerBatches().length > offers, 'offers resume');
  t.same(h.cluster.agentStatus('a1'), { phase: 'connected', dead: false });
});

t.test('terminal states reached during the partition are reported on reregistration', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/app', { kind: 'exitAfter', afterMs: [100_000, 100_000], state: 'TASK_FAILED' });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(5000);
  h.cluster.partitionAgent('a1');
  h.runFor(200_000);
  t.same(h.cluster.liveTasks(), [], 'the task ended on the agent');
  t.equal(h.cluster.agentUsage('a1')[0].cpusMilli, 0, 'and its resources are free');
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_UNREACHABLE@${5000 + PING} REASON_AGENT_REMOVED`], 'not reported while partitioned');
  h.cluster.healAgent('a1');
  h.runFor(0);
  t.same(h.timeline('t1', t0).slice(-1), [`TASK_FAILED@205000 REASON_AGENT_REREGISTERED`]);
  t.equal(h.cluster.taskAgent('t1'), undefined, 'the master forgets it (no uuid to acknowledge)');
});

t.test('heal before the ping timeout: held updates are delivered in order, remembered kills run', async (t) => {
  const h = new Harness();
  h.cluster.setTaskModel('/b', { kind: 'exitAfter', afterMs: [1000, 1000], state: 'TASK_FINISHED' });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1')), launchOp(taskLaunch('t2', 'a1', { runSpecId: '/b' }))]);
  h.runFor(RUNNING_AFTER_MS + 10);
  const p = h.now;
  h.cluster.partitionAgent('a1');
  h.cluster.kill('t1', 'a1', 3000);
  h.runFor(30_000);
  t.same(h.timeline('t1', p), [], 'the kill waits for the agent');
  t.same(h.timeline('t2', p), [], 'the exit is held');
  h.cluster.healAgent('a1');
  h.runFor(5000);
  t.same(h.timeline('t2', p), ['TASK_FINISHED@30000']);
  t.ok(h.statuses('t2').slice(-1)[0].uuid, 'held updates keep their reliability');
  t.same(h.timeline('t1', p), ['TASK_KILLING@30000', 'TASK_KILLED@31000']);
  h.runFor(PING);
  t.equal(h.inputsOfType('status').filter((s) => s.status.state === 'TASK_UNREACHABLE').length, 0, 'the ping timeout was cancelled');
});

t.test('a kill of an unreachable task is answered by reconciliation (TASK_UNREACHABLE) and kills nothing', async (t) => {
  const h = new Harness();
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(5000);
  const p = h.now;
  h.cluster.partitionAgent('a1');
  h.runFor(PING + 1000);
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(5000);
  t.same(h.timeline('t1', p).slice(-1), [`TASK_UNREACHABLE@${PING + 1000} REASON_RECONCILIATION`]);
  h.cluster.kill('t1', undefined, 0);
  h.runFor(0);
  t.same(h.timeline('t1', p).slice(-1), [`TASK_UNKNOWN@${PING + 6000} REASON_RECONCILIATION`], 'without agent id the master cannot tell');
  h.cluster.healAgent('a1');
  h.runFor(0);
  t.same(h.timeline('t1', p).slice(-1), [`TASK_RUNNING@${PING + 6000} REASON_AGENT_REREGISTERED`], 'it comes back running');
});

t.test('killAgent: rescind, TASK_UNREACHABLE after the ping timeout, then TASK_GONE and agentLost', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')], timings: { agentRemovalMs: 60_000 } });
  h.cluster.start();
  h.runFor(0);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('t1', 'a1')), launchOp(taskLaunch('t2', 'a1'))], 0);
  h.runFor(5000);
  const k = h.now;
  h.cluster.killAgent('a1');
  h.runFor(0);
  t.same(h.cluster.liveTasks(), [], 'nothing runs on a dead host');
  t.equal(h.inputsOfType('rescind').length, 1);
  h.cluster.healAgent('a1');
  h.runFor(PING + 60_000 + 1000);
  t.same(h.timeline('t1', k), [`TASK_UNREACHABLE@${PING} REASON_AGENT_REMOVED`, `TASK_GONE@${PING + 60_000} REASON_AGENT_REMOVED`], 'a dead agent cannot heal');
  t.same(h.timeline('t2', k).map((s) => s.split('@')[0]), ['TASK_UNREACHABLE', 'TASK_GONE']);
  t.same(h.inputsOfType('agentLost').map((a) => [a.agentId, a.t - k]), [['a1', PING + 60_000]]);
  const lostAt = h.received.findIndex((r) => r.input.type === 'agentLost');
  const lastGone = h.received.map((r) => r.input.type === 'status' && r.input.status.state === 'TASK_GONE').lastIndexOf(true);
  t.ok(lastGone < lostAt, 'TASK_GONE before agentLost');
  t.same(h.cluster.agentIds(), ['a2']);
  t.equal(h.cluster.taskAgent('t1'), undefined);
  h.cluster.reconcile([{ taskId: 't1', agentId: 'a1' }]);
  h.runFor(0);
  t.same(h.timeline('t1', k).slice(-1)[0].split('@')[0], 'TASK_UNKNOWN', 'a removed agent is unknown to the master');
  t.equal(h.cluster.agentUsage('a1')[0].cpusMilli, 0);
});

t.test('killAgent with the default removal delay; killAgent of a partitioned and of an unreachable agent', async (t) => {
  for (const when of ['connected', 'disconnected', 'unreachable'] as const) {
    const h = new Harness();
    startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
    h.runFor(5000);
    const p = h.now;
    if (when !== 'connected') h.cluster.partitionAgent('a1');
    if (when === 'unreachable') h.runFor(PING + 100);
    h.cluster.killAgent('a1');
    h.runFor(PING + 1000);
    const lost = h.inputsOfType('agentLost');
    t.equal(lost.length, 1, when);
    t.equal(lost[0].t - p, when === 'unreachable' ? PING + 100 : PING, `${when}: removed right after being unreachable`);
    t.same(h.timeline('t1', p).map((s) => s.split('@')[0]), ['TASK_UNREACHABLE', 'TASK_GONE'], when);
  }
});

t.test('a reused task id of an unreachable task is refused', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  h.cluster.start();
  h.runFor(0);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('t1', 'a1'))], 0);
  h.runFor(1000);
  h.cluster.partitionAgent('a1');
  h.runFor(PING);
  h.cluster.accept(h.lastOffer('a2').offerId, [launchOp(taskLaunch('t1', 'a2'))], 0);
  t.match(h.cluster.violations, [/duplicate task id t1/]);
});
