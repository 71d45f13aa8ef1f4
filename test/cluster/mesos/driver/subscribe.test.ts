import t from 'tap';
import { MEDIA_TYPES } from '../../../../src/cluster/mesos/codec/media-type';
import { waitUntil } from '../fake-master/wait-until';
import { PATIENCE_MS } from '../../../harness/wait';
import { makeDriver } from './driver-fixture';

t.test('the first SUBSCRIBE carries a full FrameworkInfo and no stream id', async (t) => {
  const f = await makeDriver(t, { options: { frameworkName: 'marathon-test', taskKilling: true, failoverTimeoutSeconds: 604800, webuiUrl: 'http://127.0.0.1:8080' } });
  const subscribed = await f.waitInput('subscribed');
  const sub = await f.master.waitForCall('SUBSCRIBE');
  t.equal(subscribed.frameworkId, f.master.frameworkId, 'the framework id the master assigned');
  t.equal(f.driver.frameworkId, subscribed.frameworkId);
  t.equal(sub.streamId, undefined, 'no Mesos-Stream-Id on SUBSCRIBE (§1.3)');
  t.equal(sub.accept, MEDIA_TYPES.protobuf, 'Accept names only protobuf (§1.2)');
  t.equal(sub.format, 'protobuf');
  t.equal(sub.call.frameworkId, undefined, 'no framework id on a first subscription');
  const info = sub.call.subscribe?.frameworkInfo;
  t.match(info, { user: 'pacer-test', name: 'marathon-test', failoverTimeout: 604800, checkpoint: true, roles: ['*'], webuiUrl: 'http://127.0.0.1:8080' });
  t.equal(info?.role, undefined, 'the deprecated role is never set with MULTI_ROLE (§9)');
  t.equal(info?.id, undefined);
  t.same(info?.capabilities?.map((c) => c.type).sort(), ['MULTI_ROLE', 'PARTITION_AWARE', 'REGION_AWARE', 'TASK_KILLING_STATE']);
  t.same(sub.call.subscribe?.suppressedRoles ?? [], []);
  t.equal(f.driver.state, 'subscribed');
});

t.test('later calls carry the stream id of the subscription', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed');
  f.driver.reconcile([{ taskId: 'a', agentId: 'agent-S0' }]);
  f.driver.kill('a', 'agent-S0', 5000);
  const reconcile = await f.master.waitForCall('RECONCILE');
  const kill = await f.master.waitForCall('KILL');
  for (const call of [reconcile, kill]) {
    t.equal(call.streamId, f.master.streamId, `${call.call.type} carries Mesos-Stream-Id`);
    t.equal(call.status, 202);
    t.same(call.call.frameworkId, { value: frameworkId });
  }
  t.same(reconcile.call.reconcile, { tasks: [{ taskId: { value: 'a' }, agentId: { value: 'agent-S0' } }] });
  t.same(kill.call.kill?.killPolicy, { gracePeriod: { nanoseconds: 5_000_000_000 } }, 'kill_policy.grace_period from gracePeriodMs');
});

t.test('a restart resubscribes with the stored framework id in both places', async (t) => {
  const f = await makeDriver(t, { recovered: { frameworkId: 'stored-0000', launchedInstances: 3 } });
  const subscribed = await f.waitInput('subscribed');
  const sub = await f.master.waitForCall('SUBSCRIBE');
  t.same(sub.call.frameworkId, { value: 'stored-0000' });
  t.same(sub.call.subscribe?.frameworkInfo.id, { value: 'stored-0000' });
  t.equal(subscribed.frameworkId, 'stored-0000');
});

t.test('a NEW framework id is refused while instances exist', async (t) => {
  const f = await makeDriver(t, { noStart: true });
  t.throws(() => f.driver.start({ launchedInstances: 2 }), /refusing to register a new Mesos framework.*2 launched instance/);
  t.equal(f.master.calls.length, 0, 'nothing was sent');
  t.equal(f.driver.state, 'idle');
});

t.test('a master that assigns a different framework id is fatal', async (t) => {
  const f = await makeDriver(t, { noStart: true });
  f.master.behaviour.autoSubscribed = false;
  f.driver.start({ frameworkId: 'mine-0000', launchedInstances: 1 });
  await f.master.waitForStream();
  f.master.send({ type: 'SUBSCRIBED', subscribed: { frameworkId: { value: 'other-0000' }, heartbeatIntervalSeconds: 15 } });
  await f.master.waitForCall('SUBSCRIBE');
  await waitUntil(() => f.fatal[0], PATIENCE_MS, 'onFatal');
  t.match(f.fatal[0]?.message, /other-0000 instead of mine-0000/);
  t.equal(f.driver.state, 'stopped');
  t.same(f.inputsOf('subscribed'), [], 'the core never hears of the foreign id');
});

t.test('the JSON format option uses application/json for calls and events', async (t) => {
  const f = await makeDriver(t, { options: { format: 'json' } });
  await f.waitInput('subscribed');
  f.driver.reconcile([]);
  const sub = await f.master.waitForCall('SUBSCRIBE');
  const reconcile = await f.master.waitForCall('RECONCILE');
  t.equal(sub.accept, MEDIA_TYPES.json);
  t.equal(sub.format, 'json');
  t.equal(reconcile.format, 'json');
  t.same(reconcile.call.reconcile, {}, 'implicit reconciliation still carries an empty reconcile message (§2.0)');
  f.master.send({ type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'TASK_RUNNING', agentId: { value: 'a1' }, uuid: new Uint8Array(16).fill(7) } } });
  const status = await f.waitInput('status');
  t.match(status.status, { taskId: 't1', state: 'TASK_RUNNING', agentId: 'a1', uuid: Buffer.alloc(16, 7).toString('base64') });
});
