import t from 'tap';
import { taskStatus } from '../fake-master/sample-events';
import { makeDriver } from './driver-fixture';

t.test('UPDATE events become status inputs, partition and agent removal included', async (t) => {
  const f = await makeDriver(t);
  await f.waitInput('subscribed');
  const updates = [
    taskStatus('t1', 'TASK_RUNNING'),
    taskStatus('t1', 'TASK_UNREACHABLE', { source: 'SOURCE_MASTER', reason: 'REASON_AGENT_REMOVED', uuid: undefined, unreachableTime: { nanoseconds: 1.7e18 } }),
    taskStatus('t1', 'TASK_RUNNING', { source: 'SOURCE_MASTER', reason: 'REASON_AGENT_REREGISTERED', uuid: undefined }),
    taskStatus('t2', 'TASK_GONE', { reason: 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT' }),
    taskStatus('t3', 'TASK_RUNNING', { healthy: false, reason: 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED' }),
  ];
  for (const status of updates) f.master.send({ type: 'UPDATE', update: { status } });
  await f.waitInput('status', updates.length);
  const got = f.inputsOf('status').map((i) => i.status);
  t.same(got.map((s) => [s.taskId, s.state, s.reason ?? null]), [
    ['t1', 'TASK_RUNNING', null],
    ['t1', 'TASK_UNREACHABLE', 'REASON_AGENT_REMOVED'],
    ['t1', 'TASK_RUNNING', 'REASON_AGENT_REREGISTERED'],
    ['t2', 'TASK_GONE', 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT'],
    ['t3', 'TASK_RUNNING', 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED'],
  ]);
  t.same(got.map((s) => s.uuid !== undefined), [true, false, false, true, true], 'a uuid only where the update carried one');
  t.equal(got[4]?.healthy, false);
  t.same(f.master.callsOf('ACKNOWLEDGE'), [], 'the driver never acknowledges on its own: the core does, after recording');
  f.driver.acknowledge('agent-S0', 't1', got[0]!.uuid!);
  const ack = await f.master.waitForCall('ACKNOWLEDGE');
  t.same(ack.call.acknowledge?.uuid, updates[0]!.uuid, 'the uuid bytes are echoed unchanged (§2.10)');
});

t.test('FAILURE of an agent posts agentLost; an executor FAILURE does not', async (t) => {
  const f = await makeDriver(t);
  await f.waitInput('subscribed');
  f.master.send({ type: 'FAILURE', failure: { agentId: { value: 'S1' }, executorId: { value: 'e1' }, status: 0 } });
  f.master.send({ type: 'FAILURE', failure: { agentId: { value: 'S2' } } });
  t.same(await f.waitInput('agentLost'), { type: 'agentLost', agentId: 'S2' });
  t.equal(f.inputsOf('agentLost').length, 1);
});

t.test('a role change sends UPDATE_FRAMEWORK restating the suppressed roles', async (t) => {
  const f = await makeDriver(t, { options: { defaultRole: 'slave_public' } });
  const { frameworkId } = await f.waitInput('subscribed');
  f.driver.suppress([]);
  f.driver.updateFrameworkRoles(['slave_public', 'dev', 'dev']);
  f.driver.revive(['dev']);
  f.driver.suppress(['dev', 'unknown-role']);
  f.driver.revive(['unknown-role']);
  f.driver.updateFrameworkRoles(['dev', 'slave_public']);
  const update = await f.master.waitForCall('UPDATE_FRAMEWORK');
  t.equal(update.status, 200);
  t.same(update.call.frameworkId, { value: frameworkId });
  t.same(update.call.updateFramework?.frameworkInfo.roles, ['dev', 'slave_public']);
  t.same(update.call.updateFramework?.frameworkInfo.id, { value: frameworkId });
  t.same(update.call.updateFramework?.suppressedRoles, ['slave_public'], 'suppressed before, still suppressed');
  await f.master.waitForCall('SUPPRESS', 2);
  t.same(f.master.callsOf('SUPPRESS').map((c) => c.call.suppress?.roles ?? []), [[], ['dev']], 'unknown roles are left out');
  t.same(f.master.callsOf('REVIVE').map((c) => c.call.revive?.roles ?? []), [['dev']], 'a revive of only unknown roles is not sent (empty = all)');
  t.equal(f.master.callsOf('UPDATE_FRAMEWORK').length, 1, 'an unchanged set sends nothing');
  t.same(f.master.calls.map((c) => c.call.type), ['SUBSCRIBE', 'SUPPRESS', 'UPDATE_FRAMEWORK', 'REVIVE', 'SUPPRESS'], 'calls keep their order');

  f.master.cutStream();
  await f.waitInput('subscribed', 2);
  const resub = f.master.callsOf('SUBSCRIBE')[1];
  t.same(resub?.call.subscribe?.frameworkInfo.roles, ['dev', 'slave_public'], 'roles restated on resubscription');
  t.same(resub?.call.subscribe?.suppressedRoles, ['dev', 'slave_public'], 'suppression restated (§1.8)');
});

t.test('roles set before subscribing go in the SUBSCRIBE itself', async (t) => {
  const f = await makeDriver(t, { noStart: true });
  f.driver.updateFrameworkRoles(['*', 'prod']);
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed');
  const sub = await f.master.waitForCall('SUBSCRIBE');
  t.same(sub.call.subscribe?.frameworkInfo.roles, ['*', 'prod']);
  t.same(f.master.callsOf('UPDATE_FRAMEWORK'), []);
});
