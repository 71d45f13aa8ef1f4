import t from 'tap';
import { agentSpec, launchOf, masterScalars, masterTask } from '../../builders/master-builders';
import { MasterHarness } from './master-harness';

/**
 * The master model when the framework's scheduler dies and a standby resubscribes
 * (mesos-v1-scheduler-api.md §1.8, §7.1): no offers while it is disconnected, outstanding ones
 * discarded, offers back after the resubscription, and the agents retry what was not
 * acknowledged — the latest update of each task, with its uuid.
 */

/** A started master with agents a and b, the first round handled (offers O1 for a, O2 for b). */
function twoAgents(): MasterHarness {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a'));
  h.master.addAgent(agentSpec('b'));
  h.master.start();
  h.runUntil(0);
  return h;
}

t.test('a disconnected framework gets no offers; its outstanding offers are discarded without a rescind; offers resume when it resubscribes', async (t) => {
  const h = twoAgents();
  t.same(h.offeredAgents(), ['a', 'b']);
  h.master.frameworkDisconnected();
  t.same(h.master.outstandingOffers(), [], 'outstanding offers discarded');
  t.same(h.received.filter((r) => r.input.type === 'rescind'), [], 'no rescind: no one listens');
  h.runUntil(10_000);
  t.same(h.offeredAgents(1), [], 'no offer for ten rounds');
  h.master.allocateNow();
  t.same(h.offeredAgents(1), [], 'not even off the grid');
  h.master.frameworkSubscribed();
  h.runUntil(10_999);
  t.same(h.offeredAgents(1), [], 'the next round is on the grid');
  h.runUntil(11_000);
  t.same(h.offeredAgents(1), ['a', 'b'], 'both agents offered at the first round after the resubscription');
  t.same(h.master.outstandingOffers().map((o) => o.offerId), ['O3', 'O4'], 'fresh offer ids');
});

t.test('a resubscription clears suppression and refuse filters (a restarted scheduler restates none)', async (t) => {
  const cases: { name: string; before: (h: MasterHarness) => void }[] = [
    { name: 'suppressed everything', before: (h) => h.master.suppress([]) },
    { name: 'declined for an hour', before: (h) => h.master.decline(['O1', 'O2'], 3_600_000) },
  ];
  for (const c of cases) {
    const h = twoAgents();
    c.before(h);
    h.master.frameworkDisconnected();
    h.runUntil(5000);
    h.master.frameworkSubscribed();
    h.runUntil(6000);
    t.same(h.offeredAgents(1), ['a', 'b'], c.name);
  }
});

t.test('the agents retry the latest unacknowledged update of each task when the framework resubscribes; older ones are superseded', async (t) => {
  const h = twoAgents();
  h.master.accept('O1', [launchOf(masterTask('t1', 'a', masterScalars(1, 10))), launchOf(masterTask('t2', 'a', masterScalars(1, 10)))], 0);
  h.master.accept('O2', [launchOf(masterTask('t3', 'b', masterScalars(1, 10)))], 0);
  h.master.taskUpdate('t1', 'TASK_STARTING');
  h.master.taskUpdate('t1', 'TASK_RUNNING');
  h.master.taskUpdate('t2', 'TASK_RUNNING');
  h.master.taskUpdate('t3', 'TASK_RUNNING');
  const t2 = h.master.unacknowledged().find((u) => u.taskId === 't2');
  if (t2 === undefined) throw new Error('t2 has no update');
  h.master.acknowledge('a', 't2', t2.uuid);
  h.master.frameworkDisconnected();
  h.master.disconnectAgent('b');
  h.received.length = 0;
  h.master.frameworkSubscribed();
  const retried = h.received.flatMap((r) => (r.input.type === 'status' ? [[r.input.status.taskId, r.input.status.state, r.input.status.uuid]] : []));
  t.same(retried, [['t1', 'TASK_RUNNING', 'u2']], 't1 retried with its latest update and uuid; t2 was acknowledged; t3 is on a disconnected agent');
  t.same(h.master.unacknowledged().map((u) => [u.taskId, u.uuid]), [['t1', 'u2'], ['t3', 'u4']], "t1's TASK_STARTING is superseded; t3's update waits for its agent");
  h.master.acknowledge('a', 't1', 'u2');
  t.same(h.master.unacknowledged().map((u) => u.taskId), ['t3']);
  t.same(h.problems, []);
});
