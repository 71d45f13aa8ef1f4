import t from 'tap';
import type { Call } from '../../../../src/cluster/mesos/codec/mesos-model';
import { CallOutbox, type OutgoingCall } from '../../../../src/cluster/mesos/transport/call-outbox';

/**
 * While subscribed, the calls waiting for the master are bounded (`maxQueued`, docs/limits.md):
 * a master that sends updates faster than they are acknowledged (a Mesos-failure trial sent
 * 20,000 at once: 40,000 ACKNOWLEDGE and KILL calls queued) costs bounded memory. Only KILL and
 * ACKNOWLEDGE are dropped for it, the oldest first: the cluster repeats both.
 */

function ack(n: number): OutgoingCall {
  return { call: { type: 'ACKNOWLEDGE', acknowledge: { agentId: { value: 'a' }, taskId: { value: `t${n}` }, uuid: new Uint8Array([n & 255]) } } as Call };
}

function kill(n: number): OutgoingCall {
  return { call: { type: 'KILL', kill: { taskId: { value: `k${n}` } } } as Call };
}

function accept(n: number, dropped: () => void): OutgoingCall {
  return { call: { type: 'ACCEPT', accept: { offerIds: [{ value: `o${n}` }], operations: [] } } as unknown as Call, dropped };
}

/** An outbox subscribed to a master that never answers (every call stays in flight or waiting). */
function stalled(maxQueued: number, maxInFlight = 1): { outbox: CallOutbox; sent: Call[] } {
  const outbox = new CallOutbox(10, maxInFlight, maxQueued);
  const sent: Call[] = [];
  outbox.open((item) => {
    sent.push(item.call);
    return new Promise<void>(() => undefined);
  });
  return { outbox, sent };
}

function idOf(call: Call): string {
  return call.acknowledge?.taskId.value ?? call.kill?.taskId.value ?? call.accept?.offerIds?.[0]?.value ?? call.type;
}

t.test('beyond the bound the oldest waiting KILL and ACKNOWLEDGE calls go, down to half the bound', async (t) => {
  const { outbox, sent } = stalled(10);
  for (let n = 0; n < 12; n++) outbox.enqueue(n % 2 === 0 ? ack(n) : kill(n));
  // t0 went out at once; t1..t11 waited; the 11th waiting call (t11) crossed the bound of 10.
  t.same(sent.map(idOf), ['t0']);
  t.equal(outbox.shed, 6, 'down to 5 waiting');
  t.equal(outbox.size, 5);
  const { outbox: unbounded } = stalled(Number.POSITIVE_INFINITY);
  for (let n = 0; n < 1000; n++) unbounded.enqueue(ack(n));
  t.equal(unbounded.shed, 0, 'no bound given: nothing dropped');
});

t.test('other calls are never dropped for the bound, and keep their order', async (t) => {
  const { outbox } = stalled(4);
  let dropped = 0;
  const items = [accept(1, () => dropped++), ack(2), accept(3, () => dropped++), kill(4), accept(5, () => dropped++), ack(6), accept(7, () => dropped++)];
  for (const item of items) outbox.enqueue(item);
  t.equal(dropped, 0, 'no ACCEPT reported dropped');
  t.ok(outbox.shed > 0, 'some KILL or ACKNOWLEDGE went');
  const { outbox: onlyOthers } = stalled(2);
  for (let n = 0; n < 10; n++) onlyOthers.enqueue(accept(n, () => dropped++));
  t.equal(onlyOthers.size, 9, 'a queue of ACCEPTs only keeps them all (one in flight)');
  t.equal(onlyOthers.shed, 0);
});

t.test('a flood of 40,000 keeps at most the bound waiting', async (t) => {
  const { outbox } = stalled(1000, 8);
  let most = 0;
  for (let n = 0; n < 40_000; n++) {
    outbox.enqueue(n % 2 === 0 ? ack(n) : kill(n));
    most = Math.max(most, outbox.size);
  }
  t.ok(most <= 1000, `at most ${most} waited`);
  t.equal(outbox.shed + outbox.size + 8, 40_000, 'every call sent, waiting or dropped');
});
