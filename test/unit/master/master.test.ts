import t from 'tap';
import { agentSpec, groupOf, launchOf, masterScalars, masterTask } from '../../builders/master-builders';
import { MasterHarness } from './master-harness';

/** A started master with agents a and b (ports 1000–1009 and 1010–1019), first round handled. */
function twoAgents(): MasterHarness {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a', { ports: [[1000, 1009]] }));
  h.master.addAgent(agentSpec('b', { ports: [[1010, 1019]] }));
  h.master.start();
  h.runUntil(0);
  return h;
}

t.test('one outstanding offer per agent, all its free resources; an offer is used once', async (t) => {
  const h = twoAgents();
  t.same(h.offers().map((o) => [o.offerId, o.agent.agentId]), [['O1', 'a'], ['O2', 'b']], 'agentId order');
  t.same(h.lastOffer('a').pools, [{ cpusMilli: 4000, memMilli: 1_024_000, diskMilli: 1_024_000, gpus: 0, ports: [[1000, 1009]] }]);
  h.runUntil(5000);
  t.same(h.offeredAgents(1), [], 'both outstanding: nothing more');
  h.master.decline(['O1'], 0);
  h.master.decline(['O1'], 0);
  h.runUntil(6000);
  t.same(h.offers(5000).map((o) => o.offerId), ['O3'], 'a declined with no filter is offered again at the next round (on the grid), once');
  t.same(h.master.outstandingOffers(), [{ offerId: 'O2', agentId: 'b' }, { offerId: 'O3', agentId: 'a' }]);
});

t.test('refuse filters (§2.3) as the one allocator reads them', async (t) => {
  const cases = [
    { name: '0 installs no filter', refuseMs: 0, at: 1000, offered: ['a'] },
    { name: 'filtered until it expires', refuseMs: 2500, at: 2999, offered: [] },
    { name: 'offered at the first round after it expired', refuseMs: 2500, at: 3000, offered: ['a'] },
    { name: 'negative means 5 s', refuseMs: -1, at: 4999, offered: [] },
    { name: 'negative means 5 s (expired)', refuseMs: -1, at: 5000, offered: ['a'] },
  ];
  for (const c of cases) {
    const h = twoAgents();
    h.master.decline(['O2'], 3_600_000);
    h.master.decline(['O1'], c.refuseMs);
    h.runUntil(c.at);
    t.same(h.offeredAgents(1), c.offered, c.name);
  }
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10)))], 60_000);
  h.runUntil(5000);
  t.same(h.offeredAgents(1), [], 'the rest of an accept is filtered');
  h.master.executorEnded(h.launched[0].executor);
  h.runUntil(6000);
  t.same(h.offeredAgents(5000), ['a'], 'freed resources lift the filter (it covered less than the agent now has)');
  t.same(h.lastOffer('a').pools[0]?.cpusMilli, 4000, 'all of it again');
});

t.test('suppress and revive per role (§2.6, §2.7)', async (t) => {
  const cases: { name: string; calls: ['suppress' | 'revive', string[]][]; offered: string[] }[] = [
    { name: 'suppress all', calls: [['suppress', []]], offered: [] },
    { name: 'suppress all, revive all', calls: [['suppress', []], ['revive', []]], offered: ['a', 'b'] },
    { name: 'suppress the only named role', calls: [['suppress', ['web']]], offered: [] },
    { name: 'another named role is unsuppressed', calls: [['revive', ['ops']], ['suppress', ['web']]], offered: ['a', 'b'] },
    { name: 'suppress all, revive one role', calls: [['suppress', []], ['revive', ['web']]], offered: ['a', 'b'] },
  ];
  for (const c of cases) {
    const h = new MasterHarness();
    h.master.addAgent(agentSpec('a'));
    h.master.addAgent(agentSpec('b'));
    for (const [call, roles] of c.calls) h.master[call](roles);
    h.master.start();
    h.runUntil(0);
    t.same(h.offeredAgents(), c.offered, c.name);
  }
  const h = twoAgents();
  h.master.decline(['O1', 'O2'], 60_000);
  h.master.revive(['web']);
  h.runUntil(1000);
  t.same(h.offeredAgents(1), ['a', 'b'], 'revive clears every filter');
  const s = twoAgents();
  s.master.suppress([]);
  t.same(s.master.outstandingOffers().length, 2, 'outstanding offers survive a suppress');
});

t.test('a reserved pool is offered to its role only while the role is not suppressed', async (t) => {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a', { reserved: [{ reservedFor: 'web', cpusMilli: 1000, memMilli: 1000, diskMilli: 0, gpus: 0, ports: [] }] }));
  h.master.suppress(['web']);
  h.master.revive(['ops']);
  h.master.start();
  h.runUntil(0);
  t.same(h.lastOffer('a').pools.map((p) => p.reservedFor ?? '*'), ['*'], 'web suppressed: the unreserved pool only');
  h.master.decline([h.lastOffer('a').offerId], 0);
  h.master.revive(['web']);
  h.runUntil(1000);
  t.same(h.lastOffer('a').pools.map((p) => p.reservedFor ?? '*'), ['*', 'web']);
});

t.test('allocateNow: a round at once, off the grid', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10)))], 0);
  h.now = 10;
  h.master.allocateNow();
  t.same(h.offers(10).map((o) => [o.agent.agentId, o.pools[0]?.cpusMilli]), [['a', 3000]], 'the rest of a, at once');
  h.runUntil(1009);
  t.same(h.offeredAgents(11), [], 'no round before the next grid time');
});

t.test('ACCEPT: refused operations get TASK_ERROR / TASK_DROPPED at now+1 and consume nothing', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [
    launchOf(masterTask('big', 'a', masterScalars(5, 10))),
    launchOf(masterTask('ok', 'a', masterScalars(4, 10), [1000])),
    groupOf('e1', [masterTask('p1', 'a', masterScalars(0, 10))]),
  ], 0);
  t.same(h.launched.map((l) => l.executor.executorId), ['ok'], 'only the valid one launched (its command executor is named after it)');
  t.same(h.statuses().map((s) => [s.taskId, s.state, s.reason]), [['big', 'TASK_ERROR', 'REASON_TASK_INVALID'], ['p1', 'TASK_ERROR', 'REASON_TASK_GROUP_INVALID']]);
  t.equal(h.problems.length, 2, 'reported as problems of the framework');
  t.same(h.master.agentUsage('a')[0], { cpusMilli: 4000, memMilli: 10_000, diskMilli: 0, gpus: 0, ports: [[1000, 1000]] }, 'exactly the valid allocation is booked');
  h.master.accept('O1', [launchOf(masterTask('late', 'a', masterScalars(1, 1)))], 0);
  t.match(h.statuses('late'), [{ state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS', message: 'offer O1 is no longer valid' }], 'a used offer is stale');
  h.unrunnable = 'no container runtime';
  h.master.accept('O2', [launchOf(masterTask('img', 'b', masterScalars(1, 1)))], 0);
  t.match(h.statuses('img'), [{ state: 'TASK_ERROR', reason: 'REASON_TASK_INVALID', message: 'no container runtime' }], 'the runtime refuses what it cannot run, before resources');
});

t.test('an executor id in use: a group joining a running executor is refused, one shutting down drops the group', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [groupOf('e1', [masterTask('p1', 'a', masterScalars(0.5, 10)), masterTask('p2', 'a', masterScalars(0.5, 10))])], 0);
  h.runUntil(1000);
  h.master.accept(h.lastOffer('a').offerId, [groupOf('e1', [masterTask('p3', 'a', masterScalars(0.5, 10))])], 0);
  t.match(h.statuses('p3'), [{ state: 'TASK_ERROR', reason: 'REASON_TASK_GROUP_INVALID', message: /executor e1 already runs/ }]);
  h.report('p1', 'TASK_FAILED');
  h.report('p2', 'TASK_KILLED');
  h.runUntil(2000);
  h.master.accept(h.lastOffer('a').offerId, [groupOf('e1', [masterTask('p4', 'a', masterScalars(0.5, 10))])], 0);
  t.match(h.statuses('p4'), [{ state: 'TASK_DROPPED', reason: 'REASON_EXECUTOR_TERMINATED' }], 'all its tasks ended, the executor not gone yet');
  h.master.executorEnded(h.launched[0].executor);
  h.runUntil(3000);
  h.master.accept(h.lastOffer('a').offerId, [groupOf('e1', [masterTask('p5', 'a', masterScalars(0.5, 10))])], 0);
  t.same(h.launched.map((l) => l.op.kind === 'launchGroup' ? l.op.tasks.map((x) => x.taskId) : []), [['p1', 'p2'], ['p5']], 'the id is free once the executor is gone');
});

t.test('updates, acknowledgements and reconciliation answers (§7.1, §7.2)', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10)))], 0);
  h.master.reconcile([{ taskId: 't1' }, { taskId: 'nope', agentId: 'b' }, { taskId: 'nope2' }, { taskId: 'nope3', agentId: 'zz' }]);
  t.same(h.statuses().map((s) => [s.taskId, s.state, s.uuid]), [
    ['t1', 'TASK_STAGING', undefined], ['nope', 'TASK_GONE', undefined], ['nope2', 'TASK_UNKNOWN', undefined], ['nope3', 'TASK_UNKNOWN', undefined],
  ], 'known: the latest state sent (STAGING before any); unknown on a registered agent: GONE; otherwise UNKNOWN');
  h.report('t1', 'TASK_RUNNING', true);
  const running = h.statuses('t1').pop();
  t.match(running, { state: 'TASK_RUNNING', healthy: true, uuid: 'u1' }, 'executor updates are reliable');
  h.master.kill('nope', 'b', 100);
  t.match(h.statuses('nope').pop(), { state: 'TASK_GONE', reason: 'REASON_RECONCILIATION' }, 'a KILL of an unknown task is answered by reconciliation');
  h.master.kill('t1', 'b', 100);
  t.same(h.killed, [], 'a KILL naming another agent is ignored');
  h.master.kill('t1', undefined, 100);
  t.same(h.killed, [{ taskId: 't1', graceMs: 100 }]);
  h.report('t1', 'TASK_KILLED');
  h.master.acknowledge('b', 't1', 'u2');
  t.same(h.problems, ['acknowledge of u2 names task t1 on b, which it was not sent for']);
  t.equal(h.master.remembers('t1'), true, 'a mismatched acknowledgement changes nothing');
  h.master.acknowledge('a', 't1', 'u2');
  t.equal(h.master.remembers('t1'), false, 'the acknowledged terminal update lets the master forget the task');
  t.same(h.master.unacknowledged().map((u) => u.uuid), ['u1']);
  h.master.kill('t1', undefined, 100);
  t.same(h.killed.length, 1, 'a forgotten task is not killed again');
});

t.test('check statuses: carried by executor updates, answered by reconciliation as the last one sent, and by adoption as recorded (§5.5)', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10)))], 0);
  h.report('t1', 'TASK_RUNNING');
  h.master.taskUpdate('t1', 'TASK_RUNNING', 'REASON_TASK_CHECK_STATUS_UPDATED', undefined, undefined, { http: { statusCode: 503 } });
  t.match(h.statuses('t1').pop(), { state: 'TASK_RUNNING', reason: 'REASON_TASK_CHECK_STATUS_UPDATED', checkStatus: { http: { statusCode: 503 } }, uuid: String });
  h.report('t1', 'TASK_RUNNING', true);
  t.equal(h.statuses('t1').pop()?.checkStatus, undefined, 'an update without a check status carries none (the core keeps the last)');
  h.master.reconcile([{ taskId: 't1' }]);
  t.match(h.statuses('t1').pop(), { reason: 'REASON_RECONCILIATION', healthy: true, checkStatus: { http: { statusCode: 503 } } });

  const r = new MasterHarness();
  r.master.addAgent(agentSpec('a'));
  r.master.adoptExecutor({
    agentId: 'a', executorId: 'e1', group: false, allocation: [],
    tasks: [{ taskId: 'p1', state: 'TASK_RUNNING', checkStatus: { tcp: { succeeded: true } } }],
  });
  r.master.reconcile([]);
  t.match(r.statuses('p1'), [{ state: 'TASK_RUNNING', reason: 'REASON_RECONCILIATION', checkStatus: { tcp: { succeeded: true } } }]);
});

t.test('adoptExecutor books what survived a restart and remembers its live tasks as recorded', async (t) => {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a'));
  const executor = h.master.adoptExecutor({
    agentId: 'a', executorId: 'e1', group: true,
    allocation: [{ cpusMilli: 1000, memMilli: 10_000, diskMilli: 0, gpus: 0, ports: [[1000, 1001]] }, { reservedFor: 'gone', cpusMilli: 1, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] }],
    tasks: [{ taskId: 'p1', state: 'TASK_RUNNING', healthy: true }, { taskId: 'p2', state: 'TASK_FINISHED' }],
  });
  t.same(h.master.agentUsage('a'), [{ cpusMilli: 1000, memMilli: 10_000, diskMilli: 0, gpus: 0, ports: [[1000, 1001]] }], 'a pool the agent no longer has counts against nothing');
  t.same([...h.master.tasks()].map((x) => x.taskId), ['p1'], 'terminal tasks are not remembered');
  h.master.reconcile([]);
  t.match(h.statuses('p1'), [{ state: 'TASK_RUNNING', healthy: true, reason: 'REASON_RECONCILIATION' }]);
  h.master.start();
  h.runUntil(0);
  t.same(h.lastOffer('a').pools[0]?.ports, [[1002, 1009]], 'the adopted ports are not offered');
  h.report('p1', 'TASK_KILLED');
  h.master.executorEnded(executor);
  t.same(h.master.agentUsage('a')[0]?.cpusMilli, 0, 'released when it ends');
});

t.test('TASK_UNREACHABLE carries when the agent was marked unreachable, in reconciliation answers too (§7.2, §7.4)', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10)))], 0);
  h.report('t1', 'TASK_RUNNING');
  h.master.disconnectAgent('a');
  h.runUntil(h.now + 75_000);
  const markedMs = h.now;
  t.match(h.statuses('t1').pop(), { state: 'TASK_UNREACHABLE', reason: 'REASON_AGENT_REMOVED', unreachableSinceMs: markedMs }, 'the marking');
  // A scheduler that reconciles later (one that took over after a failover, having missed the
  // marking) learns when the agent was marked, not only that it is unreachable: its unreachable
  // strategy counts from then (master.cpp answers with the agent's `unreachable_time`).
  h.runUntil(markedMs + 15_000);
  h.master.reconcile([{ taskId: 't1', agentId: 'a' }]);
  t.match(h.statuses('t1').pop(), { state: 'TASK_UNREACHABLE', reason: 'REASON_RECONCILIATION', unreachableSinceMs: markedMs }, 'the reconciliation answer');
  h.master.reconcile([{ taskId: 'unknown-task', agentId: 'a' }]);
  t.match(h.statuses('unknown-task').pop(), { state: 'TASK_UNREACHABLE', unreachableSinceMs: markedMs }, 'a task the master does not know, on that agent');
  h.master.reconnectAgent('a');
  t.equal(h.statuses('t1').pop()?.unreachableSinceMs, undefined, 'back: reregistered, no unreachable time');
  h.master.disconnectAgent('a');
  h.runUntil(h.now + 75_000);
  t.match(h.statuses('t1').pop(), { state: 'TASK_UNREACHABLE', unreachableSinceMs: h.now }, 'marked again: the new time');
});

t.test('a partitioned agent: held updates, remembered kills, unreachable, reregistration (§7.4)', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10))), launchOf(masterTask('t2', 'a', masterScalars(1, 10)))], 0);
  h.report('t1', 'TASK_RUNNING');
  h.master.disconnectAgent('a');
  t.same(h.received.filter((r) => r.input.type === 'rescind').length, 0, 'no offer of a was outstanding');
  h.report('t2', 'TASK_RUNNING');
  h.master.kill('t1', undefined, 50);
  t.same([h.statuses('t2').length, h.killed.length], [0, 0], 'held, remembered');
  h.master.reconnectAgent('a');
  t.match(h.statuses('t2'), [{ state: 'TASK_RUNNING', uuid: /^u/ }], 'held updates delivered with uuids');
  t.same(h.killed, [{ taskId: 't1', graceMs: 50 }], 'then the remembered kill');
  h.master.disconnectAgent('a');
  h.runUntil(h.now + 75_000);
  t.same(h.statuses().filter((s) => s.state === 'TASK_UNREACHABLE').map((s) => s.taskId), ['t1', 't2']);
  t.same(h.master.agentStatus('a'), { phase: 'unreachable', dead: false });
  h.report('t2', 'TASK_FINISHED');
  h.master.reconnectAgent('a');
  t.match(h.statuses('t2').pop(), { state: 'TASK_FINISHED', reason: 'REASON_AGENT_REREGISTERED', uuid: undefined }, 'the current state, no uuid');
  t.equal(h.master.remembers('t2'), false, 'a master-sent terminal update needs no acknowledgement');
});

t.test('an ACCEPT whose operations launch no task is a decline (§2.3): nothing launched, no problem, the filter applies', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [{ ...groupOf('e1', []), allocation: [] }], 60_000);
  t.same(h.launched, [], 'nothing launched');
  t.same(h.problems, [], 'not a broken rule');
  t.same(h.statuses(), []);
  h.runUntil(59_999);
  t.same(h.offeredAgents(1), [], 'filtered like a decline');
  h.runUntil(60_000);
  t.same(h.offeredAgents(1), ['a']);
});
