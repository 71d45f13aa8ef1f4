import t from 'tap';
import { agent, groupOp, Harness, launchOp, pool, res, startAndAccept, taskLaunch } from './harness';

t.test('accept → STAGING, STARTING, RUNNING after the drawn delays, each with a uuid', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(10_000);
  t.same(h.timeline('t1', t0), ['TASK_STAGING@100', 'TASK_STARTING@300', 'TASK_RUNNING@600']);
  const s = h.statuses('t1');
  t.same(s.map((x) => x.uuid), ['u-1', 'u-2', 'u-3'], 'deterministic uuids');
  t.ok(s.every((x) => x.agentId === 'a1'));
  t.same(h.cluster.liveTasks(), [{ taskId: 't1', agentId: 'a1', state: 'TASK_RUNNING', runSpecId: '/app', instanceId: 't1.instance' }]);
  t.equal(h.cluster.taskAgent('t1'), 'a1');
  t.equal(h.cluster.taskAgent('nope'), undefined);
  t.same(h.cluster.unacknowledged(), [], 'the harness acknowledged everything');
});

t.test('delays are drawn within the configured ranges', async (t) => {
  const h = new Harness({ timings: { stagingMs: [50, 200], startingMs: [100, 1000], runningMs: [200, 2000] } });
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1')), launchOp(taskLaunch('t2', 'a1'))]);
  h.runFor(10_000);
  for (const id of ['t1', 't2']) {
    const [staging, starting, running] = h.statuses(id).map((s) => s.t - t0);
    t.ok(staging >= 50 && staging <= 200, `staging ${staging}`);
    t.ok(starting - staging >= 100 && starting - staging <= 1000, `starting ${starting}`);
    t.ok(running - starting >= 200 && running - starting <= 2000, `running ${running}`);
  }
});

t.test('unacknowledged updates are tracked until acknowledged', async (t) => {
  const h = new Harness({ autoAck: false });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(10_000);
  t.same(h.cluster.unacknowledged().map((u) => [u.uuid, u.state]), [['u-1', 'TASK_STAGING'], ['u-2', 'TASK_STARTING'], ['u-3', 'TASK_RUNNING']]);
  h.cluster.acknowledge('a1', 't1', 'u-2');
  h.cluster.acknowledge('a1', 't1', 'u-2');
  t.same(h.cluster.unacknowledged().map((u) => u.uuid), ['u-1', 'u-3'], 'duplicate ack ignored');
  h.cluster.acknowledge('a1', 'other', 'u-3');
  t.equal(h.cluster.violations.length, 1, 'an ack naming the wrong task is a violation');
  t.match(h.cluster.violations[0], /acknowledge of u-3/);
  t.same(h.cluster.unacknowledged().map((u) => u.uuid), ['u-1', 'u-3']);
});

t.test('a terminal task is forgotten once its terminal update is acknowledged', async (t) => {
  const h = new Harness({ autoAck: false });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.runFor(1000);
  h.cluster.kill('t1', 'a1', 0);
  h.runFor(10);
  const killed = h.statuses('t1').find((s) => s.state === 'TASK_KILLED');
  t.ok(killed?.uuid);
  h.cluster.reconcile([]);
  h.runFor(0);
  t.same(h.statuses('t1').slice(-1).map((s) => [s.state, s.reason]), [['TASK_KILLED', 'REASON_RECONCILIATION']], 'implicit reconciliation reports unacked terminal tasks');
  t.equal(h.cluster.taskAgent('t1'), 'a1');
  h.cluster.acknowledge('a1', 't1', killed?.uuid as string);
  t.equal(h.cluster.taskAgent('t1'), undefined, 'forgotten');
  h.cluster.reconcile([{ taskId: 't1', agentId: 'a1' }]);
  h.runFor(0);
  t.same(h.statuses('t1').slice(-1).map((s) => [s.state, s.reason, s.uuid]), [['TASK_GONE', 'REASON_RECONCILIATION', undefined]]);
});

t.test('launch on a stale offer → TASK_DROPPED (REASON_INVALID_OFFERS) at now+1, nothing consumed', async (t) => {
  const h = new Harness();
  h.cluster.start();
  h.runFor(0);
  const o = h.lastOffer('a1');
  h.cluster.rescindOffers('a1');
  const t0 = h.now;
  h.cluster.accept(o.offerId, [launchOp(taskLaunch('t1', 'a1')), groupOp('e1', [taskLaunch('p1', 'a1'), taskLaunch('p2', 'a1')])], 5000);
  h.runFor(10_000);
  t.same(h.timeline('t1', t0), ['TASK_DROPPED@1 REASON_INVALID_OFFERS']);
  t.same(h.timeline('p1', t0), ['TASK_DROPPED@1 REASON_INVALID_OFFERS']);
  t.same(h.timeline('p2', t0), ['TASK_DROPPED@1 REASON_INVALID_OFFERS']);
  t.equal(h.statuses('t1')[0].uuid, undefined, 'master-generated: no uuid');
  t.same(h.cluster.agentUsage('a1')[0].cpusMilli, 0);
  t.same(h.cluster.liveTasks(), []);
  t.same(h.cluster.violations, [], 'a rescind race is not a violation');
});

t.test('an offer can be used once: a second accept is stale', async (t) => {
  const h = new Harness();
  const t0 = startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))]);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('t2', 'a1'))], 0);
  h.runFor(1);
  t.same(h.timeline('t2', t0), ['TASK_DROPPED@1 REASON_INVALID_OFFERS']);
});

t.test('over-commit is not silently accepted: violation + TASK_ERROR, other operations still launch', async (t) => {
  const h = new Harness({ agents: [agent('a1', { cpus: 2, mem: 1024 })] });
  h.cluster.start();
  h.runFor(0);
  const o = h.lastOffer('a1');
  const t0 = h.now;
  const ok = taskLaunch('ok', 'a1', { resources: res(1.5, 512) });
  const tooBig = taskLaunch('big', 'a1', { resources: res(1, 100) });
  h.cluster.accept(o.offerId, [launchOp(ok), launchOp(tooBig)], 0);
  h.runFor(1000);
  t.equal(h.cluster.violations.length, 1);
  t.match(h.cluster.violations[0], /accept offer-1: cpusMilli 1000 exceeds the 500 left in pool \*/);
  t.same(h.timeline('big', t0), ['TASK_ERROR@1 REASON_TASK_INVALID']);
  t.same(h.timeline('ok', t0).slice(0, 1), ['TASK_STAGING@100']);
  t.same(h.cluster.agentUsage('a1')[0].cpusMilli, 1500, 'only the valid launch consumed resources');
});

t.test('other invalid launches are violations too', async (t) => {
  const cases: [string, (h: Harness) => Parameters<Harness['cluster']['accept']>[1], RegExp][] = [
    ['port not offered', () => [launchOp(taskLaunch('x', 'a1', { hostPorts: [40000] }))], /ports \[\[40000,40000\]\] not offered/],
    ['allocation smaller than the task', () => [launchOp(taskLaunch('x', 'a1', { resources: res(1, 10) }), undefined, [pool(res(0.5, 10))])], /tasks need 1000/],
    ['host port outside the allocation', () => [launchOp(taskLaunch('x', 'a1', { hostPorts: [31001] }), undefined, [pool(res(0.5, 128))])], /host port 31001/],
    ['reserved pool that does not exist', () => [launchOp(taskLaunch('x', 'a1', { role: 'web' }), 'web')], /pool role:web, which was not offered/],
    ['wrong agent', () => [launchOp(taskLaunch('x', 'a2'))], /targets agent a2/],
    ['duplicate task id', (h) => {
      h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('x', 'a1'))], 0);
      h.runFor(1000);
      return [launchOp(taskLaunch('x', 'a1'))];
    }, /duplicate task id x/],
    ['same port twice', () => [launchOp(taskLaunch('x', 'a1', { hostPorts: [31001] })), launchOp(taskLaunch('y', 'a1', { hostPorts: [31001] }))], /ports \[\[31001,31001\]\] not offered/],
  ];
  for (const [name, ops, re] of cases) {
    const h = new Harness();
    h.cluster.start();
    h.runFor(0);
    const operations = ops(h);
    h.cluster.accept(h.lastOffer('a1').offerId, operations, 0);
    h.runFor(1);
    t.equal(h.cluster.violations.length, 1, name);
    t.match(h.cluster.violations[0], re, name);
  }
});

t.test('reserved resources for another role are a violation', async (t) => {
  const h = new Harness({ agents: [agent('a1', { reserved: [{ role: 'web', cpus: 1, mem: 100, disk: 0, gpus: 0, ports: [] }] })] });
  h.cluster.start();
  h.runFor(0);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('x', 'a1', { role: 'db', resources: res(0.5, 10) }), 'web')], 0);
  t.match(h.cluster.violations[0], /reserved for web for a task of another role/);
});

t.test('launchGroup: tasks start together, the executor resources are consumed and freed with the last task', async (t) => {
  const h = new Harness({ timings: { stagingMs: [50, 200], startingMs: [100, 1000], runningMs: [200, 2000] } });
  const op = groupOp('e1', [taskLaunch('p1', 'a1', { resources: res(0.5, 64) }), taskLaunch('p2', 'a1', { resources: res(0.25, 32) })]);
  const t0 = startAndAccept(h, [op]);
  t.same(h.cluster.agentUsage('a1')[0], { cpusMilli: 850, memMilli: 128_000, diskMilli: 10_000, gpus: 0, ports: [] });
  h.runFor(10_000);
  const p1 = h.statuses('p1').map((s) => `${s.state}@${s.t - t0}`);
  const p2 = h.statuses('p2').map((s) => `${s.state}@${s.t - t0}`);
  t.same(p1, p2, 'same launch steps at the same times');
  t.equal(p1.length, 3);
  h.cluster.kill('p1', 'a1', 5000);
  h.runFor(10_000);
  t.same(h.cluster.agentUsage('a1')[0], { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] });
});

t.test('reconciliation', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  h.cluster.start();
  h.runFor(0);
  h.cluster.accept(h.lastOffer('a1').offerId, [launchOp(taskLaunch('t1', 'a1', { healthCheck: {} })), launchOp(taskLaunch('t2', 'a1'))], 0);
  h.runFor(50);
  h.cluster.reconcile([{ taskId: 't1', agentId: 'a1' }]);
  h.runFor(0);
  t.same(h.statuses('t1').map((s) => [s.state, s.reason, s.uuid]), [['TASK_STAGING', 'REASON_RECONCILIATION', undefined]], 'known, nothing sent yet → TASK_STAGING');
  h.runFor(1000);
  h.cluster.reconcile([{ taskId: 't1', agentId: 'a1' }, { taskId: 'ghost', agentId: 'a2' }, { taskId: 'ghost2' }, { taskId: 'ghost3', agentId: 'zz' }]);
  h.runFor(0);
  const last = (id: string) => h.statuses(id).slice(-1).map((s) => [s.state, s.reason, s.healthy, s.uuid, s.agentId])[0];
  t.same(last('t1'), ['TASK_RUNNING', 'REASON_RECONCILIATION', true, undefined, 'a1'], 'latest state and health');
  t.same(last('ghost'), ['TASK_GONE', 'REASON_RECONCILIATION', undefined, undefined, 'a2'], 'unknown task on a registered agent');
  t.same(last('ghost2'), ['TASK_UNKNOWN', 'REASON_RECONCILIATION', undefined, undefined, undefined], 'no agent id');
  t.same(last('ghost3'), ['TASK_UNKNOWN', 'REASON_RECONCILIATION', undefined, undefined, 'zz'], 'unknown agent');
  const before = h.statuses().length;
  h.cluster.reconcile([]);
  h.runFor(0);
  t.same(h.statuses().slice(before).map((s) => [s.taskId, s.state, s.reason]), [['t1', 'TASK_RUNNING', 'REASON_RECONCILIATION'], ['t2', 'TASK_RUNNING', 'REASON_RECONCILIATION']], 'implicit: every known task, launch order');
  t.match(h.trace.filter((l) => l.includes('"op":"reconcile"')).slice(1), [/"tasks":\["t1","ghost","ghost2","ghost3"\]/, /"tasks":\[\]/]);
});
