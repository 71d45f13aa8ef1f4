import t from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { coreAppLaunch } from '../translate/mesos-builders';
import { makeDriver } from './driver-fixture';

const WAIT_MS = 60_000;

/** ERRORs that resubscribing cannot fix (apache/mesos src/master/master.cpp), and what the driver must say. */
const FINAL: readonly { message: string; says: RegExp }[] = [
  { message: 'Framework has been removed', says: /no longer knows this framework id.*store that has no framework id/ },
  { message: 'Framework failed over', says: /another scheduler subscribed with this framework id/ },
  { message: "Roles { dev } are not present in the master's --roles", says: /Add the role\(s\) to the master's --roles/ },
  { message: "Not authorized to register framework with principal 'pacer' and roles { dev }", says: /authorizer refuses this framework/ },
  { message: "User 'root' is not allowed to run frameworks without --root_submissions set", says: /refuses this framework's identity/ },
];

for (const c of FINAL) {
  for (const when of ['instead of SUBSCRIBED', 'while subscribed'] as const) {
    t.test(`ERROR "${c.message}" ${when}: stop and say why, no resubscription loop`, async (t) => {
      const f = await makeDriver(t, { noStart: true });
      if (when === 'instead of SUBSCRIBED') f.master.subscribeErrors.push(c.message);
      f.driver.start({ launchedInstances: 0 });
      if (when === 'while subscribed') {
        await f.waitInput('subscribed', 1, WAIT_MS);
        f.master.send({ type: 'ERROR', error: { message: c.message } });
      }
      const fatal = await waitUntil(() => f.fatal[0], WAIT_MS, 'onFatal');
      t.match(fatal.message, c.message, 'the master\'s message is kept');
      t.match(fatal.message, c.says, 'and explained');
      t.equal(f.driver.state, 'stopped');
      await new Promise((resolve) => setTimeout(resolve, 200));
      t.equal(f.master.callsOf('SUBSCRIBE').length, 1, 'subscribed once, never again');
      t.equal(f.driver.metrics.errors, 1);
    });
  }
}

t.test('a transient ERROR (the authorizer failed) is retried with a growing backoff', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { backoffInitialMs: 20, backoffMaxMs: 1000 } });
  const failure = 'Authorization failure: could not create ObjectApprovers for a framework: timed out';
  f.master.subscribeErrors.push(failure, failure, failure);
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed', 1, WAIT_MS);
  t.same(f.fatal, []);
  t.equal(f.master.callsOf('SUBSCRIBE').length, 4);
  const delays = f.logs.filter((l) => l.includes(failure)).map((l) => Number(/resubscribing in (\d+) ms/.exec(l)?.[1]));
  t.same(delays, [20, 40, 80], 'exponential');
});

t.test('ERRORs right after SUBSCRIBED do not reset the backoff: no tight loop', async (t) => {
  const f = await makeDriver(t, { options: { backoffInitialMs: 20, backoffMaxMs: 1000, maxConsecutiveErrors: 100 } });
  for (let n = 1; n <= 3; n++) {
    await f.waitInput('subscribed', n, WAIT_MS);
    f.master.send({ type: 'ERROR', error: { message: 'Framework disconnected' } });
  }
  await f.waitInput('subscribed', 4, WAIT_MS);
  const delays = f.logs.filter((l) => l.includes('Framework disconnected')).map((l) => Number(/resubscribing in (\d+) ms/.exec(l)?.[1]));
  t.same(delays, [20, 40, 80]);
  t.equal(f.driver.metrics.reconnects, 3);
});

t.test('an ERROR of unknown meaning is retried, but only maxConsecutiveErrors times in a row', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { maxConsecutiveErrors: 3 } });
  f.master.subscribeErrors.push('Something new', 'Something new', 'Something new', 'Something new');
  f.driver.start({ launchedInstances: 0 });
  const fatal = await waitUntil(() => f.fatal[0], WAIT_MS, 'onFatal');
  t.match(fatal.message, /Something new \(3 such errors in a row; giving up\)/);
  t.equal(f.master.callsOf('SUBSCRIBE').length, 3);
  t.same(f.inputsOf('subscribed'), []);
});

t.test('a healthy subscription starts the error count over', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { maxConsecutiveErrors: 2 } });
  f.master.subscribeErrors.push('Something new');
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed', 1, WAIT_MS);
  f.master.send({ type: 'HEARTBEAT' }); // the second event after SUBSCRIBED: healthy
  f.master.send({ type: 'ERROR', error: { message: 'Something new' } });
  await f.waitInput('subscribed', 2, WAIT_MS);
  t.same(f.fatal, [], 'one unknown ERROR before and one after a healthy subscription are not two in a row');
});

t.test('an UPDATE_FRAMEWORK refused for a role outside --roles: that role is named and left, the driver carries on', async (t) => {
  const f = await makeDriver(t);
  await f.waitInput('subscribed', 1, WAIT_MS);
  f.master.callAnswers.push({ status: 400, body: "Supplied FrameworkInfo is not valid: Roles { dev } are not present in the master's --roles" });
  f.driver.updateFrameworkRoles(['*', 'dev']);
  const restated = await f.master.waitForCall('UPDATE_FRAMEWORK', 2);
  t.same(restated.call.updateFramework?.frameworkInfo.roles, ['*'], 'the accepted roles are restated without dev');
  t.match(f.logs.join('\n'), /WARN the Mesos master refuses the role\(s\) dev \(.*Roles \{ dev \}.*\): pacer no longer subscribes to them.*carries on with \*/);
  t.same(f.fatal, [], 'not fatal: the other roles still work');
  t.equal(f.driver.state, 'subscribed');
  t.same(f.driver.refusedRoles, ['dev']);
  f.driver.updateFrameworkRoles(['*', 'dev', 'prod']);
  const third = await f.master.waitForCall('UPDATE_FRAMEWORK', 3);
  t.same(third.call.updateFramework?.frameworkInfo.roles, ['*', 'prod'], 'dev is not asked for again, however often the apps want it');
  f.master.cutStream();
  await f.waitInput('subscribed', 2, WAIT_MS);
  t.same(f.master.callsOf('SUBSCRIBE')[1]?.call.subscribe?.frameworkInfo.roles, ['*', 'prod'], 'nor on resubscription');
});

/** SUBSCRIBE refused for some roles (the master sends ERROR and drops the connection). */
const ROLE_REFUSALS: readonly string[] = [
  "Roles { dev, ops } are not present in the master's --roles",
  "Not authorized to register framework with principal 'pacer' and roles { dev, ops }",
];

for (const message of ROLE_REFUSALS) {
  t.test(`SUBSCRIBE refused with "${message}": those roles are named and left out, no loop, no stop`, async (t) => {
    const f = await makeDriver(t, { noStart: true });
    f.driver.updateFrameworkRoles(['*', 'dev', 'ops']);
    f.master.subscribeErrors.push(message);
    f.driver.start({ launchedInstances: 0 });
    await f.waitInput('subscribed', 1, WAIT_MS);
    const subscribes = f.master.callsOf('SUBSCRIBE');
    t.same(subscribes.map((c) => c.call.subscribe?.frameworkInfo.roles), [['*', 'dev', 'ops'], ['*']], 'resubscribed once, without the refused roles');
    t.match(f.logs.join('\n'), /the Mesos master refuses the role\(s\) dev, ops .*no longer subscribes to them/);
    t.same(f.fatal, []);
    t.same(f.driver.refusedRoles, ['dev', 'ops']);
  });
}

t.test('a refusal of every role the framework asks for stays final (nothing left to run)', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { defaultRole: 'dev' } });
  f.master.subscribeErrors.push("Roles { dev } are not present in the master's --roles");
  f.driver.start({ launchedInstances: 0 });
  const fatal = await waitUntil(() => f.fatal[0], WAIT_MS, 'onFatal');
  t.match(fatal.message, /Roles \{ dev \}.*Add the role\(s\) to the master's --roles/);
  t.equal(f.master.callsOf('SUBSCRIBE').length, 1, 'subscribed once, never again');
});

t.test('a KILL without an answer is sent again with backoff; an ACCEPT is not', async (t) => {
  const f = await makeDriver(t, { options: { callRetryInitialMs: 20, maxCallRetries: 2 } });
  const { frameworkId } = await f.waitInput('subscribed', 1, WAIT_MS);
  f.master.callAnswers.push({ status: 0, drop: true }, { status: 0, drop: true });
  f.driver.kill('t1', 'a1', 1000);
  const third = await f.master.waitForCall('KILL', 3, WAIT_MS);
  t.equal(third.status, 202, 'answered on the second retry');
  t.ok(f.logs.some((l) => /KILL .*sending it again in 20 ms/.test(l)));
  t.ok(f.logs.some((l) => /KILL .*sending it again in 40 ms/.test(l)));
  t.equal(f.driver.metrics.retriedCalls, 2);
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const offer = (await f.waitInput('offers', 1, WAIT_MS)).offers[0]!;
  f.master.callAnswers.push({ status: 0, drop: true });
  f.driver.accept(offer.offerId, [coreAppLaunch(offer, makeApp({ id: '/w' }))], 0);
  await f.master.waitForCall('ACCEPT', 1, WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(f.master.callsOf('ACCEPT').length, 1, 'an ACCEPT may have been processed: never sent twice');
});

t.test('master failover: offers of the old master are never accepted on the new one', async (t) => {
  const leader = await FakeMaster.start();
  t.teardown(() => leader.close());
  const f = await makeDriver(t, { recovered: { frameworkId: 'fw-0000', launchedInstances: 1 } });
  await f.waitInput('subscribed', 1, WAIT_MS);
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer('fw-0000', 'OLD-1')] } });
  const offer = (await f.waitInput('offers', 1, WAIT_MS)).offers[0]!;
  f.master.subscribeAnswers.push({ status: 307, location: `//${leader.hostPort}/api/v1/scheduler` });
  f.master.cutStream();
  await f.waitInput('subscribed', 2, WAIT_MS);
  t.equal(f.driver.leader, leader.url);
  // The core handles the old offer only now (it was queued in its loop): the launch must not reach the new master.
  const op = coreAppLaunch(offer, makeApp({ id: '/w' }));
  f.driver.accept(offer.offerId, [op], 0);
  const dropped = await f.waitInput('status', 1, WAIT_MS);
  t.match(dropped.status, { taskId: op.task.taskId, state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS' });
  f.driver.decline([offer.offerId], 0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.same([...f.master.callsOf('ACCEPT'), ...leader.callsOf('ACCEPT'), ...leader.callsOf('DECLINE')], [], 'the old offer went nowhere');
  t.equal(f.driver.metrics.subscriptions, 2);
});
