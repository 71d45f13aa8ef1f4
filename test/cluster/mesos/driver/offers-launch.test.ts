import t from 'tap';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { makeApp, makePod } from '../../../builders/run-spec-builders';
import { coreAppLaunch, corePodLaunch } from '../translate/mesos-builders';
import { sampleOffer } from '../fake-master/sample-events';
import { makeDriver, type DriverFixture } from './driver-fixture';

/** Subscribes and sends the recorded offer under `offerId`; returns the core offer the driver posted. */
async function offered(f: DriverFixture, offerId: string, nth = 1) {
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, offerId)] } });
  const input = await f.waitInput('offers', nth);
  return { frameworkId, offer: input.offers[0] };
}

t.test('an OFFERS event becomes an offers input translated from the raw offer', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId, offer } = await offered(f, 'O-1');
  t.same(offer, offerFromMesos(sampleOffer(frameworkId, 'O-1')), 'offerFromMesos of the recorded offer');
  t.match(offer, { offerId: 'O-1', allocationRole: '*', agent: { agentId: 'agent-S0', hostname: '127.0.0.1' } });
});

t.test('accept sends ACCEPT with LAUNCH and resources copied from the offer, allocation info included', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId, offer } = await offered(f, 'O-1');
  const op = coreAppLaunch(offer!, makeApp({ id: '/web', cpus: 0.5, mem: 128, hostPorts: [0] }));
  f.driver.accept('O-1', [op], 5000);
  const accept = await f.master.waitForCall('ACCEPT');
  t.same(accept.call.frameworkId, { value: frameworkId });
  t.same(accept.call.accept?.offerIds, [{ value: 'O-1' }]);
  t.same(accept.call.accept?.filters, { refuseSeconds: 5 });
  const launch = accept.call.accept?.operations?.[0];
  t.equal(launch?.type, 'LAUNCH');
  const task = launch?.launch?.taskInfos?.[0];
  t.equal(task?.taskId.value, op.task.taskId);
  t.same(task?.agentId, { value: 'agent-S0' });
  const byName = new Map((task?.resources ?? []).map((r) => [r.name, r]));
  t.same(byName.get('cpus')?.scalar, { value: 0.5 });
  t.same(byName.get('mem')?.scalar, { value: 128 });
  t.same(byName.get('ports')?.ranges, { range: [{ begin: 31000, end: 31000 }] });
  for (const r of task?.resources ?? []) t.same(r.allocationInfo, { role: '*' }, `${r.name} keeps allocation_info (§4.3)`);
  t.equal(accept.status, 202);
});

t.test('a pod launches as LAUNCH_GROUP on the default executor carrying the framework id', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId, offer } = await offered(f, 'O-2');
  const op = corePodLaunch(offer!, makePod({ id: '/pod', containers: [{ name: 'a' }, { name: 'b' }] }));
  f.driver.accept('O-2', [op], 0);
  const accept = await f.master.waitForCall('ACCEPT');
  const group = accept.call.accept?.operations?.[0];
  t.equal(group?.type, 'LAUNCH_GROUP');
  t.equal(group?.launchGroup?.executor.type, 'DEFAULT');
  t.same(group?.launchGroup?.executor.frameworkId, { value: frameworkId }, 'executor.framework_id is required for LAUNCH_GROUP (§9)');
  t.same(group?.launchGroup?.taskGroup.tasks?.map((x) => x.taskId.value), op.tasks.map((x) => x.taskId));
  t.same(accept.call.accept?.filters, { refuseSeconds: 0 });
});

t.test('decline sends DECLINE with the refuse filter; a rescinded offer is gone', async (t) => {
  const f = await makeDriver(t);
  const { offer } = await offered(f, 'O-3');
  f.driver.decline(['O-3'], 120_000);
  const decline = await f.master.waitForCall('DECLINE');
  t.same(decline.call.decline, { offerIds: [{ value: 'O-3' }], filters: { refuseSeconds: 120 } });

  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-4')] } });
  await f.waitInput('offers', 2);
  f.master.send({ type: 'RESCIND', rescind: { offerId: { value: 'O-4' } } });
  t.same(await f.waitInput('rescind'), { type: 'rescind', offerId: 'O-4' });
  const op = coreAppLaunch({ ...offer!, offerId: 'O-4' }, makeApp({ id: '/late' }));
  f.driver.accept('O-4', [op], 5000);
  const dropped = await f.waitInput('status');
  t.match(dropped.status, { taskId: op.task.taskId, state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS', agentId: 'agent-S0' });
  t.equal(dropped.status.uuid, undefined, 'nothing to acknowledge');
  t.same(f.master.callsOf('ACCEPT'), [], 'no ACCEPT of a rescinded offer');
});

t.test('an ACCEPT the master rejects reports its tasks dropped', async (t) => {
  const f = await makeDriver(t);
  const { offer } = await offered(f, 'O-5');
  f.master.callAnswers.push({ status: 400, body: 'Failed to validate scheduler::Call: bad' });
  const op = coreAppLaunch(offer!, makeApp({ id: '/bad' }));
  f.driver.accept('O-5', [op], 5000);
  const dropped = await f.waitInput('status');
  t.match(dropped.status, { taskId: op.task.taskId, state: 'TASK_DROPPED' });
  t.ok(f.logs.some((l) => /ACCEPT .* 400 Failed to validate/.test(l)), 'the rejection is logged');
  t.equal(f.driver.state, 'subscribed', 'a plain 400 keeps the subscription');
});

t.test('a launch that cannot be translated is TASK_ERROR and its offer is declined at once, not held', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed', 1, 60_000);
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const offer = (await f.waitInput('offers', 1, 60_000)).offers[0]!;
  const op = coreAppLaunch(offer, makeApp({ id: '/w' }));
  // Built key by key: a core app launch is a class whose task is a getter, which a spread drops.
  const tooBig = { kind: op.kind, task: op.task, allocation: op.allocation.map((pool) => ({ ...pool, cpusMilli: 999_000 })) };
  f.driver.accept(offer.offerId, [tooBig], 0);
  const failed = await f.waitInput('status', 1, 60_000);
  t.match(failed.status, { taskId: op.task.taskId, state: 'TASK_ERROR', reason: 'REASON_TASK_INVALID' });
  const decline = await f.master.waitForCall('DECLINE', 1, 60_000);
  t.same(decline.call.decline?.offerIds, [{ value: 'O-1' }]);
  t.same(f.master.callsOf('ACCEPT'), []);
  t.equal(f.driver.metrics.offersAccepted, 0);
  t.equal(f.driver.metrics.offersDeclined, 1);
});
