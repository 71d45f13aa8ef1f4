import { once } from 'node:events';
import * as http from 'node:http';
import FakeTimers from '@sinonjs/fake-timers';
import t from 'tap';
import type { Test } from 'tap';
import { launchOp, taskLaunch } from '../../../unit/sim/cluster/harness';
import { decodeCall, encodeCall } from '../../../../src/cluster/mesos/codec/mesos-codec';
import { SIM_FRAMEWORK_ID } from '../../../../sim/cluster/sim-cluster';
import { readSample } from '../codec/sample-files';
import { QUICK_TIMINGS, roomyAgent, startRealTimeMaster, type RealTimeMaster } from './real-time-master';

/**
 * What the real-time fake master says reaches only the subscription that was open when it was
 * said. A real master decides when it makes an update: `markGone` forwards each task's
 * TASK_GONE_BY_OPERATOR only to a connected framework and drops it otherwise, and
 * `Framework::send` writes on the connection the framework has then (master.cpp); an update made
 * while the framework is disconnected is not kept for its next SUBSCRIBE (§1.8, §7.1). The timers
 * that carry a message from the master model to the wire are faked here, so a subscription can
 * open (or an old one still be open) while the marking's update is on its way: no wall-clock race.
 */

type FakeClock = ReturnType<typeof FakeTimers.install>;

/**
 * A raw SUBSCRIBE (the recorded protobuf sample, without a framework id) held open; resolves once
 * the master answered 200. With `frameworkId`, the sample's call subscribing again with that id (§1.8).
 */
async function subscribeRaw(url: string, frameworkId?: string): Promise<http.ClientRequest> {
  const sample = readSample('pb/calls/01-SUBSCRIBE.bin');
  const body = frameworkId === undefined ? sample : resubscribeCall(sample, frameworkId);
  const req = http.request(`${url}/api/v1/scheduler`, {
    method: 'POST', agent: false,
    headers: { 'Content-Type': 'application/x-protobuf', Accept: 'application/x-protobuf', 'Content-Length': String(body.byteLength) },
  });
  req.on('error', () => undefined); // destroyed at the end
  req.end(body);
  const [res] = (await once(req, 'response')) as [http.IncomingMessage];
  if (res.statusCode !== 200) throw new Error(`SUBSCRIBE answered ${res.statusCode ?? '?'}`);
  res.resume();
  return req;
}

/** The sample SUBSCRIBE with the framework id in both places (§1.8). */
function resubscribeCall(sample: Uint8Array, frameworkId: string): Uint8Array {
  const call = decodeCall(sample, 'protobuf');
  const subscribe = call.subscribe;
  if (subscribe === undefined) throw new Error('the sample is not a SUBSCRIBE');
  const id = { value: frameworkId };
  return encodeCall({ ...call, frameworkId: id, subscribe: { ...subscribe, frameworkInfo: { ...subscribe.frameworkInfo, id } } }, 'protobuf');
}

/** A real-time master on faked timers whose agent-1 runs task t1, launched straight into the simulated cluster. */
async function masterWithTask(t: Test): Promise<{ rt: RealTimeMaster; clock: FakeClock }> {
  // Only the timers are faked (Date stays real): the master's messages and its own events wait for the clock.
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const started: { rt?: RealTimeMaster } = {};
  // The master's timers are cleared on the fake clock before the real ones come back.
  t.teardown(async () => {
    await started.rt?.close();
    clock.uninstall();
  });
  const rt = await startRealTimeMaster([roomyAgent('agent-1')], { timings: { ...QUICK_TIMINGS, agentPingTimeoutMs: 200, agentRemovalMs: 0 } });
  started.rt = rt;
  clock.tick(1);
  const [offer] = rt.master.cluster.outstandingOffers();
  if (offer === undefined) throw new Error('the first round offered nothing');
  rt.master.cluster.accept(offer.offerId, [launchOp(taskLaunch('t1', 'agent-1'))], 0);
  clock.tick(100);
  t.same(rt.master.cluster.liveTasks().map((l) => [l.taskId, l.state]), [['t1', 'TASK_RUNNING']], 't1 runs on agent-1');
  return { rt, clock };
}

/** agent-1 dies; its timers run one by one until the master has marked it gone (the marking's update then on its way). */
function markGone(t: Test, rt: RealTimeMaster, clock: FakeClock): void {
  rt.master.cluster.killAgent('agent-1');
  for (let i = 0; i < 1000 && rt.master.cluster.agentStatus('agent-1')?.phase !== 'removed'; i++) clock.next();
  t.equal(rt.master.cluster.agentStatus('agent-1')?.phase, 'removed', 'agent-1 marked gone');
}

/** What was written, as [task, state, reason, stream]. */
function written(rt: RealTimeMaster): (string | undefined)[][] {
  return rt.master.statusesSent.map((s) => [s.status.taskId.value, s.status.state, s.status.reason, s.streamId]);
}

t.test('an agent marked gone while no framework is subscribed: its update is not written on a subscription opened before its delivery', async (t) => {
  const { rt, clock } = await masterWithTask(t);
  markGone(t, rt, clock);
  const req = await subscribeRaw(rt.url);
  t.teardown(() => req.destroy());
  const streamId = rt.master.fake.streamId;
  t.ok(streamId, 'a framework subscribed before the marking\'s update was due');
  clock.tick(10);
  t.same(written(rt), [], 'the marking\'s update, said to nobody, is dropped: not written on the new subscription');

  // The new subscriber learns by reconciling (what pacer does on every SUBSCRIBED).
  rt.master.cluster.reconcile([{ taskId: 't1', agentId: 'agent-1' }]);
  clock.tick(10);
  t.same(written(rt), [['t1', 'TASK_GONE_BY_OPERATOR', 'REASON_RECONCILIATION', streamId]], 'the reconciliation answer, on the subscription');
  t.same(rt.master.problems, []);
});

t.test('an agent marked gone while the old subscription is still open (its close not yet seen): the update is written on it, never on the next one', async (t) => {
  const { rt, clock } = await masterWithTask(t);
  // A scheduler's connection the master has not seen close (its process may be gone): still its connection.
  const first = await subscribeRaw(rt.url);
  t.teardown(() => first.destroy());
  const firstStream = rt.master.fake.streamId;
  markGone(t, rt, clock);
  clock.tick(10);
  t.same(written(rt), [
    ['t1', 'TASK_UNREACHABLE', 'REASON_AGENT_REMOVED', firstStream],
    ['t1', 'TASK_GONE_BY_OPERATOR', 'REASON_AGENT_REMOVED_BY_OPERATOR', firstStream],
  ], 'the marking unreachable, then gone, written on the connection the master still has');

  const second = await subscribeRaw(rt.url, SIM_FRAMEWORK_ID);
  t.teardown(() => second.destroy());
  const secondStream = rt.master.fake.streamId;
  t.not(secondStream, firstStream, 'the new subscription replaces the old one');
  rt.master.cluster.reconcile([{ taskId: 't1', agentId: 'agent-1' }]);
  clock.tick(10);
  t.same(written(rt).filter((w) => w[3] === secondStream), [['t1', 'TASK_GONE_BY_OPERATOR', 'REASON_RECONCILIATION', secondStream]],
    'the new subscription hears only the reconciliation answer: nothing said before it is resent');
  t.same(rt.master.problems, []);
});

/** Waits (bounded, on the real event loop: only timers are faked) for the master to see something. */
async function untilSeen(what: string, seen: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !seen(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!seen()) throw new Error(`never saw ${what}`);
}

t.test('the framework\'s connection closes: offers stop; on its next SUBSCRIBE the agents resend the unacknowledged updates', async (t) => {
  const { rt, clock } = await masterWithTask(t);
  const unacked = rt.master.cluster.unacknowledged().filter((u) => u.taskId === 't1');
  t.ok(unacked.length > 0, 't1\'s updates are unacknowledged (said before anyone subscribed)');
  const first = await subscribeRaw(rt.url);
  clock.tick(5); // the SUBSCRIBE is applied
  const firstStream = rt.master.fake.streamId;
  first.destroy(); // the scheduler dies
  await untilSeen('the close of the subscription', () => !rt.master.fake.subscribed);
  t.same(rt.master.cluster.outstandingOffers(), [], 'the disconnected framework\'s offers are withdrawn');
  clock.tick(500);
  t.same(rt.master.cluster.outstandingOffers(), [], 'and no new ones are made while it is away');

  const second = await subscribeRaw(rt.url, SIM_FRAMEWORK_ID);
  t.teardown(() => second.destroy());
  const secondStream = rt.master.fake.streamId;
  t.not(secondStream, firstStream);
  clock.tick(10);
  const resent = rt.master.statusesSent.filter((s) => s.streamId === secondStream && s.status.taskId.value === 't1');
  t.same(resent.map((s) => [s.status.state, s.status.source]), [['TASK_RUNNING', 'SOURCE_EXECUTOR']], 'the latest unacknowledged update of t1 is resent on the new subscription');
  t.ok(resent[0]?.status.uuid !== undefined && resent[0].status.uuid.byteLength > 0, 'with its uuid, to be acknowledged');
  clock.tick(200); // the next offer round
  t.ok(rt.master.cluster.outstandingOffers().length > 0, 'offers resume');
  t.same(rt.master.problems, []);
});

t.test('a SUBSCRIBE with the framework id while its old connection is still open: a failover too, the agents resend the unacknowledged updates', async (t) => {
  const { rt, clock } = await masterWithTask(t);
  const first = await subscribeRaw(rt.url);
  t.teardown(() => first.destroy());
  clock.tick(5); // the SUBSCRIBE is applied
  const second = await subscribeRaw(rt.url, SIM_FRAMEWORK_ID);
  t.teardown(() => second.destroy());
  const secondStream = rt.master.fake.streamId;
  clock.tick(10);
  const resent = rt.master.statusesSent.filter((s) => s.streamId === secondStream && s.status.taskId.value === 't1');
  t.same(resent.map((s) => [s.status.state, s.status.source]), [['TASK_RUNNING', 'SOURCE_EXECUTOR']], 'the latest unacknowledged update of t1 is resent on the new subscription');
  t.same(rt.master.problems, []);
});
