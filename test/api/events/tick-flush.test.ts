import t from 'tap';
import { FLUSH_BYTES } from '../../../src/api/events/event-stream-hub';
import { apiEvent, coreEvent, makeHub } from './hub-fixture';

/**
 * The hub's default flush (`tick`): the frames of one turn of the event loop go to each client as
 * one chunk, shared by the clients with the same filter and plan format (issue 13, SSE fan-out).
 */

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('a turn\'s frames reach each client as one chunk, in order, shared by clients with the same filter', async (t) => {
  const { connect, bus, hub } = makeHub({ flush: 'tick' });
  const a = connect({ eventTypes: ['status_update_event', 'api_post_event'] });
  const b = connect({ eventTypes: ['api_post_event', 'status_update_event'] });
  const all = connect();
  await nextTurn();
  const before = [a.chunks.length, b.chunks.length, all.chunks.length];
  bus.emit(coreEvent(1));
  hub.publish(apiEvent(2));
  bus.emit(coreEvent(3));
  t.strictSame([a.chunks.length, b.chunks.length, all.chunks.length], before, 'nothing is written during the turn');
  await nextTurn();
  t.equal(a.chunks.length, before[0] + 1, 'one write per client for the turn');
  t.equal(a.chunks.at(-1), b.chunks.at(-1), 'the same Buffer for the same filter (in any order)');
  t.strictSame(a.parsed().events.filter((e) => e.data.seq !== undefined).map((e) => e.data.seq), [1, 2, 3]);
  t.strictSame(all.parsed().events.filter((e) => e.data.seq !== undefined).map((e) => e.data.seq), [1, 2, 3]);
});

t.test('a client attached during a turn gets nothing published before it attached', async (t) => {
  const { connect, bus } = makeHub({ flush: 'tick' });
  const early = connect();
  bus.emit(coreEvent(1));
  const late = connect();
  bus.emit(coreEvent(2));
  await nextTurn();
  t.strictSame(late.parsed().events.map((e) => e.data.seq ?? e.event), ['event_stream_attached', 2]);
  t.strictSame(early.parsed().events.map((e) => e.data.seq ?? e.event), ['event_stream_attached', 1, 'event_stream_attached', 2]);
});

t.test('a long burst in one turn is written as it grows (what waits unwritten stays bounded)', async (t) => {
  const { connect, hub } = makeHub({ flush: 'tick' });
  const sink = connect({ eventTypes: ['api_post_event'] });
  const blob = 'x'.repeat(1024);
  let published = 0;
  while (sink.chunks.length === 0 && published < 1000) hub.publish({ ...apiEvent(published++), blob });
  t.ok(sink.chunks.length === 1 && sink.chunks[0].length >= FLUSH_BYTES, `written within the turn once ${FLUSH_BYTES} bytes waited`);
  t.ok(published < 100, `after ${published} events of 1 KiB`);
});

t.test('the frame bound counts frames inside joined chunks: a client that pushes back is dropped past bufferSize', async (t) => {
  const { connect, bus, hub } = makeHub({ flush: 'tick', bufferSize: 5 });
  const slow = connect();
  const fine = connect({ eventTypes: ['status_update_event', 'event_stream_detached'] });
  await nextTurn();
  slow.accepting = false;
  bus.emit(coreEvent(1));
  await nextTurn(); // written; the socket now pushes back
  for (let i = 2; i <= 4; i++) bus.emit(coreEvent(i));
  await nextTurn(); // 3 frames queued in one chunk
  t.equal(hub.subscriberCount, 2, 'within the bound');
  for (let i = 5; i <= 7; i++) bus.emit(coreEvent(i));
  await nextTurn(); // 6 frames queued
  t.equal(hub.subscriberCount, 1, 'dropped past 5 queued frames');
  t.ok(slow.ended, 'its stream ended between two frames');
  await nextTurn();
  t.strictSame(fine.parsed().events.map((e) => e.data.seq ?? e.event), [1, 2, 3, 4, 5, 6, 7, 'event_stream_detached']);
});

t.test('close writes what the turn collected before ending the streams', async (t) => {
  const { connect, bus, hub } = makeHub({ flush: 'tick' });
  const sink = connect();
  bus.emit(coreEvent(1));
  hub.close();
  t.ok(sink.ended);
  t.strictSame(sink.parsed().events.map((e) => e.data.seq ?? e.event), ['event_stream_attached', 1]);
});
