import t from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { coreAppLaunch } from '../translate/mesos-builders';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { makeDriver } from './driver-fixture';

/**
 * An agent lost with only a FAILURE event (no UPDATE for its tasks: e.g. after a master failover
 * the new master never knew them, mesos-v1-scheduler-api.md §7.2, §7.4): Marathon only logs it
 * (MarathonScheduler.slaveLost) and learns at the next periodic reconciliation. pacer asks at once:
 * an explicit RECONCILE of the tasks it knows on that agent, with the agent id, whose answers
 * (TASK_UNREACHABLE, TASK_GONE…) the core handles as any update.
 */
t.test('a FAILURE naming only an agent reconciles the tasks pacer knows there, at once', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1', 'agent-S0')] } });
  const offer = (await f.waitInput('offers')).offers[0]!;
  const launch = coreAppLaunch(offer, makeApp({ id: '/web', cpus: 0.1, mem: 32 }));
  f.driver.accept('O-1', [launch], 0);
  await f.master.waitForCall('ACCEPT');
  const onS0 = { agentId: { value: 'agent-S0' } };
  const updates = [
    taskStatus('t1', 'TASK_RUNNING', onS0),
    taskStatus('t2', 'TASK_STAGING', onS0),
    taskStatus('t3', 'TASK_RUNNING', { agentId: { value: 'agent-S9' } }),
    taskStatus('t4', 'TASK_RUNNING', onS0),
    taskStatus('t4', 'TASK_FINISHED', onS0),
  ];
  for (const status of updates) f.master.send({ type: 'UPDATE', update: { status } });
  await f.waitInput('status', updates.length);
  f.master.send({ type: 'FAILURE', failure: { agentId: { value: 'agent-S0' }, executorId: { value: 'e1' }, status: 9 } });
  f.master.send({ type: 'FAILURE', failure: { agentId: { value: 'agent-S0' } } });
  t.same(await f.waitInput('agentLost'), { type: 'agentLost', agentId: 'agent-S0' });
  const reconcile = await f.master.waitForCall('RECONCILE');
  const asked = (reconcile.call.reconcile?.tasks ?? []).map((task) => [task.taskId.value, task.agentId?.value]).sort();
  t.same(asked, [[launch.task.taskId, 'agent-S0'], ['t1', 'agent-S0'], ['t2', 'agent-S0']].sort(),
    'the launched task and the live ones on agent-S0, with its agent id; not t3 (another agent) nor t4 (finished)');
  t.equal(f.master.callsOf('RECONCILE').length, 1, 'one RECONCILE: the executor FAILURE asked nothing');
});
