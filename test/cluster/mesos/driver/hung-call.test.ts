import t from 'tap';
import type { Call } from '../../../../src/cluster/mesos/codec/mesos-model';
import { uuidFromBytes } from '../../../../src/cluster/mesos/translate/uuid-bytes';
import { PATIENCE_MS } from '../../../harness/wait';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { makeApp } from '../../../builders/run-spec-builders';
import { sampleOffer } from '../fake-master/sample-events';
import { coreAppLaunch } from '../translate/mesos-builders';
import { makeDriver } from './driver-fixture';

/**
 * A master that takes a call's connection but never answers it must not hold up unrelated calls
 * until the call timeout (the operator's trial: KILL, ACKNOWLEDGE, ACCEPT waited 75 s behind one
 * such call). The call timeout here is far beyond the tests' patience, so a call that waits behind
 * the hung one is never seen within the bound below.
 */
const NEVER_TIMES_OUT = { callTimeoutMs: 10 * PATIENCE_MS };

const killOf = (taskId: string) => (call: Call): boolean => call.type === 'KILL' && call.kill?.taskId.value === taskId;

t.test('an unanswered KILL does not hold up calls about other tasks, offers or roles', async (t) => {
  const f = await makeDriver(t, { options: NEVER_TIMES_OUT });
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'o1')] } });
  await f.waitInput('offers');
  f.master.hangWhen.push(killOf('t1'));
  f.driver.kill('t1', 'agent-S0', 0);
  await f.master.waitForCall('KILL');
  f.driver.kill('t2', 'agent-S0', 0);
  f.driver.acknowledge('agent-S0', 't3', uuidFromBytes(new Uint8Array(16).fill(7)));
  f.driver.reconcile([]);
  f.driver.revive([]);
  f.driver.decline(['o1'], 0);
  await f.master.waitForCall('KILL', 2);
  await f.master.waitForCall('DECLINE');
  await f.master.waitForCall('ACKNOWLEDGE');
  await f.master.waitForCall('RECONCILE');
  await f.master.waitForCall('REVIVE');
  t.same(f.master.callsOf('KILL').map((c) => [c.call.kill?.taskId.value, c.status]), [['t1', 0], ['t2', 202]], 't1 still hangs; t2 went past it');
  t.equal(f.master.releaseHung(), 1);
});

t.test('an unanswered ACCEPT does not hold up calls about other tasks, offers or roles', async (t) => {
  const f = await makeDriver(t, { options: NEVER_TIMES_OUT });
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1'), sampleOffer(frameworkId, 'O-2')] } });
  await f.waitInput('offers');
  const launch = coreAppLaunch(offerFromMesos(sampleOffer(frameworkId, 'O-1')), makeApp({ id: '/web', cpus: 0.1, mem: 32 }));
  f.master.hangWhen.push((call) => call.type === 'ACCEPT');
  f.driver.accept('O-1', [launch], 0);
  await f.master.waitForCall('ACCEPT');
  f.driver.kill('t2', 'agent-S0', 0);
  f.driver.decline(['O-2'], 0);
  f.driver.acknowledge('agent-S0', 't3', uuidFromBytes(new Uint8Array(16).fill(3)));
  f.driver.reconcile([]);
  f.driver.suppress([]);
  await f.master.waitForCall('KILL');
  await f.master.waitForCall('DECLINE');
  await f.master.waitForCall('ACKNOWLEDGE');
  await f.master.waitForCall('RECONCILE');
  await f.master.waitForCall('SUPPRESS');
  t.same(f.master.callsOf('ACCEPT').map((c) => c.status), [0], 'the ACCEPT still hangs');
  t.equal(f.master.releaseHung(), 1);
});

t.test('calls naming the same task, or the roles, keep their order behind an unanswered one', async (t) => {
  const f = await makeDriver(t, { options: NEVER_TIMES_OUT });
  await f.waitInput('subscribed');
  f.master.hangWhen.push(killOf('t1'), (call) => call.type === 'SUPPRESS');
  f.driver.kill('t1', 'agent-S0', 0);
  f.driver.suppress([]);
  await f.master.waitForCall('KILL');
  await f.master.waitForCall('SUPPRESS');
  f.driver.acknowledge('agent-S0', 't1', uuidFromBytes(new Uint8Array(16).fill(1)));
  f.driver.revive([]);
  f.driver.kill('t2', 'agent-S0', 0);
  await f.master.waitForCall('KILL', 2);
  t.same(f.master.callsOf('ACKNOWLEDGE'), [], 'the ACKNOWLEDGE of t1 waits for the answer to the KILL of t1');
  t.same(f.master.callsOf('REVIVE'), [], 'the REVIVE waits for the answer to the SUPPRESS (§1.10: no order across sockets otherwise)');
  t.equal(f.master.releaseHung(), 2);
  await f.master.waitForCall('ACKNOWLEDGE');
  await f.master.waitForCall('REVIVE');
  t.same(f.master.calls.slice(-2).map((c) => c.call.type).sort(), ['ACKNOWLEDGE', 'REVIVE'], 'both sent once answered');
});

t.test('calls left unanswered on a subscription that was lost do not hold up the next one', async (t) => {
  const f = await makeDriver(t, { options: { ...NEVER_TIMES_OUT, maxConcurrentCalls: 3 } });
  await f.waitInput('subscribed');
  f.master.hangWhen.push(killOf('t1'), killOf('t2'), (call) => call.type === 'SUPPRESS');
  f.driver.kill('t1', 'agent-S0', 0);
  f.driver.kill('t2', 'agent-S0', 0);
  f.driver.suppress([]);
  await f.master.waitForCall('KILL', 2);
  await f.master.waitForCall('SUPPRESS');
  f.master.cutStream(); // every place is taken by a call the master never answers
  await f.waitInput('subscribed', 2);
  f.driver.revive([]);
  f.driver.reconcile([]);
  await f.master.waitForCall('REVIVE'); // behind the SUPPRESS of the old subscription before
  await f.master.waitForCall('RECONCILE'); // behind no free place before
  const kills = await Promise.all([f.master.waitForCall('KILL', 3), f.master.waitForCall('KILL', 4)]);
  t.same(kills.map((k) => k.call.kill?.taskId.value).sort(), ['t1', 't2'], 'the KILLs whose answers were lost are sent again on the new subscription (harmless twice)');
  t.same(kills.map((k) => k.streamId), [f.master.streamId, f.master.streamId], 'with the new stream id');
  t.equal(f.master.releaseHung(), 3, 'the old calls were never answered');
});

t.test('an ACCEPT the master never answers is neither re-sent nor reported dropped: after its timeout its tasks are reconciled', async (t) => {
  // A call timeout short enough to pass within the test: a call to the fake master that timed out
  // spuriously on a loaded machine would be retried, so nothing below depends on its length.
  const f = await makeDriver(t, { options: { callTimeoutMs: 1000 } });
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  await f.waitInput('offers');
  const launch = coreAppLaunch(offerFromMesos(sampleOffer(frameworkId, 'O-1')), makeApp({ id: '/web', cpus: 0.1, mem: 32 }));
  f.master.hangWhen.push((call) => call.type === 'ACCEPT');
  f.driver.accept('O-1', [launch], 0);
  await f.master.waitForCall('ACCEPT');
  const reconcile = await f.master.waitForCall('RECONCILE');
  t.same(reconcile.call.reconcile?.tasks, [{ taskId: { value: launch.task.taskId }, agentId: { value: 'agent-S0' } }], 'the launched task, with its agent: the master says whether it was launched');
  t.equal(f.master.callsOf('ACCEPT').length, 1, 'never sent again (its offer may have been used)');
  t.same(f.inputsOf('status'), [], 'not reported dropped: it may have launched');
  t.match(f.logs.join('\n'), /ACCEPT .*no answer.*reconciling its 1 task/);
  f.master.releaseHung();
});
