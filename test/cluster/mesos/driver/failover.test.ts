import t from 'tap';
import { encodeRecord } from '../../../../src/cluster/mesos/recordio/encode-record';
import { makeApp } from '../../../builders/run-spec-builders';
import { FakeMaster } from '../fake-master/fake-master';
import { coreAppLaunch } from '../translate/mesos-builders';
import { sampleOffer } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { PATIENCE_MS } from '../../../harness/wait';
import { makeDriver } from './driver-fixture';

t.test('master failover: stream cut, backoff, 307 to the new leader, resubscribe with the id, no relaunch', async (t) => {
  const leader = await FakeMaster.start();
  t.teardown(() => leader.close());
  const f = await makeDriver(t, { recovered: { frameworkId: 'fw-0000', launchedInstances: 2 } });
  await f.waitInput('subscribed');
  f.master.cutStream();
  await f.waitInput('disconnected');
  f.master.subscribeAnswers.push({ status: 307, location: `//${leader.hostPort}/api/v1/scheduler` });
  const again = await f.waitInput('subscribed', 2);
  t.equal(again.frameworkId, 'fw-0000', 'the same framework: running tasks are kept');
  t.equal(f.driver.leader, leader.url, 'the redirect was followed');
  const sub = await leader.waitForCall('SUBSCRIBE');
  t.same(sub.call.frameworkId, { value: 'fw-0000' });
  t.same(sub.call.subscribe?.frameworkInfo.id, { value: 'fw-0000' });
  t.equal(f.master.callsOf('SUBSCRIBE').at(-1)?.status, 307);
  f.driver.reconcile([{ taskId: 'x', agentId: 'a' }]);
  const reconcile = await leader.waitForCall('RECONCILE');
  t.equal(reconcile.streamId, leader.streamId, "later calls go to the leader with its stream id");
  t.same([...f.master.callsOf('ACCEPT'), ...leader.callsOf('ACCEPT')], [], 'nothing was launched again');
  t.ok(f.logs.some((l) => /following the redirect/.test(l)));
});

t.test('missed heartbeats drop the stream and resubscribe', async (t) => {
  const f = await makeDriver(t, { options: { heartbeatFailureThreshold: 5 } });
  f.master.behaviour.heartbeatIntervalSeconds = 0.02; // 5 × 20 ms without any event
  await f.waitInput('subscribed');
  await f.waitInput('disconnected');
  await f.waitInput('subscribed', 2);
  t.ok(f.logs.some((l) => /no event \(heartbeat\) within 100 ms/.test(l)), 'the watchdog says why');
  t.ok(f.master.callsOf('SUBSCRIBE').length >= 2);
});

t.test('heartbeats keep the subscription alive', async (t) => {
  const f = await makeDriver(t);
  // 1 s allowed without an event, a heartbeat every 80 ms for 2 s: twice the window, and only a
  // stall of most of a second (not a slow machine) could starve the watchdog.
  f.master.behaviour.heartbeatIntervalSeconds = 0.2;
  await f.waitInput('subscribed');
  for (let i = 0; i < 25; i++) {
    await new Promise((resolve) => setTimeout(resolve, 80));
    f.master.send({ type: 'HEARTBEAT' });
  }
  t.same(f.inputsOf('disconnected'), [], 'no disconnect in 2 s of heartbeats');
  t.equal(f.master.callsOf('SUBSCRIBE').length, 1);
});

const GARBAGE: readonly { name: string; bytes: () => Uint8Array | string }[] = [
  { name: 'a non-numeric length prefix', bytes: () => 'xyz\n' },
  { name: 'a record that is not protobuf', bytes: () => encodeRecord(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])) },
  { name: 'an event missing a required field', bytes: () => encodeRecord(new Uint8Array([0x08, 0x04, 0x2a, 0x00])) },
];

for (const g of GARBAGE) {
  t.test(`${g.name} drops the connection and resubscribes, not a crash`, async (t) => {
    const f = await makeDriver(t);
    await f.waitInput('subscribed');
    f.master.sendRaw(g.bytes());
    await f.waitInput('disconnected');
    await f.waitInput('subscribed', 2);
    t.ok(f.logs.some((l) => /malformed event stream/.test(l)), 'logged as a malformed stream');
    t.same(f.fatal, []);
  });
}

t.test('a clean end of the stream resubscribes', async (t) => {
  const f = await makeDriver(t);
  await f.waitInput('subscribed');
  f.master.endStream();
  await f.waitInput('subscribed', 2);
  t.ok(f.logs.some((l) => /ended the stream/.test(l)));
});

t.test('4xx/5xx answers to SUBSCRIBE are retried with backoff', async (t) => {
  const f = await makeDriver(t, { noStart: true });
  f.master.subscribeAnswers.push({ status: 503, body: 'No leader elected' }, { status: 404 }, { status: 500, body: 'boom' });
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed');
  t.same(f.master.callsOf('SUBSCRIBE').map((c) => c.status), [503, 404, 500, 200]);
  t.ok(f.logs.some((l) => /answered 503: No leader elected; resubscribing in 20 ms/.test(l)));
  t.ok(f.logs.some((l) => /resubscribing in 40 ms/.test(l)), 'the delay doubles');
  t.same(f.inputsOf('disconnected'), [], 'never subscribed before, so nothing to report lost');
});

/** Answers of a plain web server, a JSON API, a catch-all app: not a Mesos master (docs/mesos.md, failed calls). */
const HTML_501 = { status: 501, body: '<!DOCTYPE HTML>\n<html><body><h1>Error response</h1></body></html>', headers: { 'Content-Type': 'text/html;charset=utf-8' } };
const FOREIGN: readonly { name: string; answers: { status: number; body?: string; headers?: Record<string, string> }[]; said: RegExp[] }[] = [
  {
    name: 'the same HTML 501 three times (python3 -m http.server): warned once',
    answers: [HTML_501, HTML_501, HTML_501],
    said: [/answered 501 with Content-Type text\/html: this does not look like a Mesos master .*check that the URL names a Mesos master.*not repeated while the answer stays the same; resubscribing in 20 ms$/],
  },
  {
    name: 'distinct causes: each warned once, in order',
    answers: [HTML_501, { status: 404, body: '{"error":"no route"}', headers: { 'Content-Type': 'application/json' } }, HTML_501, { status: 200, body: '<html>hello</html>', headers: { 'Content-Type': 'text/html' } }, { status: 200, body: '<html>hello</html>', headers: { 'Content-Type': 'text/html' } }],
    said: [/answered 501 with Content-Type text\/html: this does not look like a Mesos master/, /answered 404 with Content-Type application\/json: this does not look like a Mesos master/, /answered 200 with Content-Type text\/html, not an event stream: this does not look like a Mesos master/],
  },
  {
    name: 'a master\'s own plain-text errors are not foreign: warned at every retry, as before',
    answers: [{ status: 503, body: 'No leader elected' }, { status: 503, body: 'No leader elected' }, { status: 404 }],
    said: [/answered 503: No leader elected; resubscribing in 20 ms$/, /answered 503: No leader elected; resubscribing in 40 ms$/, /answered 404 with an empty body; resubscribing in 80 ms$/],
  },
];

for (const c of FOREIGN) {
  t.test(`SUBSCRIBE answered by something that is not a Mesos master, retried: ${c.name}`, async (t) => {
    const f = await makeDriver(t, { noStart: true });
    f.master.subscribeAnswers.push(...c.answers);
    f.driver.start({ launchedInstances: 0 });
    await f.waitInput('subscribed');
    t.same(f.master.callsOf('SUBSCRIBE').map((call) => call.status), [...c.answers.map((a) => a.status), 200], 'retried until a master answered');
    const warned = f.logs.filter((l) => l.startsWith('WARN '));
    t.equal(warned.length, c.said.length, `warnings: ${JSON.stringify(warned)}`);
    c.said.forEach((re, i) => t.match(warned[i], re));
    t.notMatch(warned.join('\n'), /DOCTYPE|<html>/, 'no HTML page in the log');
    t.same(f.fatal, []);
  });
}

t.test('a foreign answer warned about is warned about again after a subscription succeeded', async (t) => {
  const f = await makeDriver(t, { noStart: true });
  f.master.subscribeAnswers.push(HTML_501, HTML_501);
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed');
  f.master.subscribeAnswers.push(HTML_501, HTML_501);
  f.master.cutStream();
  await f.waitInput('subscribed', 2);
  t.equal(f.logs.filter((l) => /this does not look like a Mesos master/.test(l)).length, 2, 'once before the first subscription, once after it');
});

t.test('a redirect loop is capped, then backs off', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { maxRedirects: 2 } });
  const self = { status: 307, location: `//${f.master.hostPort}/api/v1/scheduler` };
  f.master.subscribeAnswers.push(self, self, self);
  f.driver.start({ launchedInstances: 0 });
  await f.waitInput('subscribed');
  t.ok(f.logs.some((l) => /2 redirect\(s\) followed; resubscribing/.test(l)));
});

t.test('a call answered 403 or "Framework cannot be found" means resubscribe now', async (t) => {
  for (const reply of [{ status: 403, body: 'Framework is not subscribed' }, { status: 400, body: 'Framework cannot be found' }]) {
    const f = await makeDriver(t);
    await f.waitInput('subscribed');
    f.master.callAnswers.push(reply);
    f.driver.kill('t1', 'a1', 1000);
    await f.waitInput('disconnected');
    await f.waitInput('subscribed', 2);
    const kills = await f.master.waitForCall('KILL', 2);
    t.equal(kills.status, 202, `the KILL refused with ${reply.status} is sent again after resubscribing`);
    t.equal(kills.streamId, f.master.streamId);
  }
});

t.test('calls made while disconnected: kills are held, launches dropped', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const offer = (await f.waitInput('offers')).offers[0]!;
  f.master.subscribeAnswers.push({ status: 503 }, { status: 503 });
  f.master.cutStream();
  await f.waitInput('disconnected');
  f.driver.kill('held-task', 'a1', 2000);
  f.driver.acknowledge('a1', 'held-task', Buffer.alloc(16, 1).toString('base64'));
  f.driver.decline([offer.offerId], 1000);
  f.driver.reconcile([{ taskId: 'held-task' }]);
  const op = coreAppLaunch(offer, makeApp({ id: '/w' }));
  f.driver.accept(offer.offerId, [op], 1000);
  const dropped = await f.waitInput('status');
  t.match(dropped.status, { taskId: op.task.taskId, state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS' });
  await f.waitInput('subscribed', 2);
  const kill = await f.master.waitForCall('KILL');
  const ack = await f.master.waitForCall('ACKNOWLEDGE');
  t.equal(kill.streamId, f.master.streamId, 'sent on the new stream');
  t.equal(ack.streamId, f.master.streamId);
  t.same(f.master.callsOf('DECLINE'), [], 'offers died with the subscription');
  t.same(f.master.callsOf('ACCEPT'), []);
  t.same(f.master.callsOf('RECONCILE'), [], 'the core reconciles on subscribed instead');
});

t.test('an ERROR event stops the driver for good and reports it', async (t) => {
  const f = await makeDriver(t);
  await f.waitInput('subscribed');
  f.master.send({ type: 'ERROR', error: { message: 'Framework has been removed' } });
  await waitUntil(() => f.fatal[0], PATIENCE_MS, 'onFatal');
  t.match(f.fatal[0]?.message, /Framework has been removed/);
  t.equal(f.driver.state, 'stopped');
  await f.waitInput('disconnected');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(f.master.callsOf('SUBSCRIBE').length, 1, 'no resubscription fight');
  f.driver.kill('t', 'a', 1000);
  t.same(f.master.callsOf('KILL'), [], 'calls after stop go nowhere');
});

t.test('an unreachable master is retried with bounded backoff until stopped', async (t) => {
  const f = await makeDriver(t, { noStart: true, options: { backoffInitialMs: 10, backoffMaxMs: 30 } });
  await f.master.close();
  f.driver.start({ launchedInstances: 0 });
  await waitUntil(() => f.logs.filter((l) => /connection failed/.test(l)).length >= 4, PATIENCE_MS, 'four refused attempts');
  t.ok(f.logs.some((l) => /resubscribing in 30 ms/.test(l)), 'the delay is capped');
  f.driver.stop();
  t.equal(f.driver.state, 'stopped');
});
