import FakeTimers from '@sinonjs/fake-timers';
import t from 'tap';
import { DEFAULT_EVENT_BUFFER_BYTES, DEFAULT_EVENT_BUFFER_SIZE } from '../../../src/api/events/event-stream-hub';
import { apiEvent, coreEvent, makeHub } from './hub-fixture';
import { typesOf } from './sse-parse';

t.test('a new client first gets its own event_stream_attached; the others get it too (fact 103)', async (t) => {
  const { connect, clock } = makeHub();
  const first = connect({ remoteAddress: '10.0.0.1' });
  clock.now += 1234;
  const second = connect({ remoteAddress: '10.0.0.2' });
  const attached = { remoteAddress: '10.0.0.2', eventType: 'event_stream_attached', timestamp: '2026-01-01T00:00:01.234Z' };
  t.strictSame(second.parsed().events, [{ event: 'event_stream_attached', data: attached }]);
  t.strictSame(first.parsed().events.map((e) => e.data.remoteAddress), ['10.0.0.1', '10.0.0.2']);
});

t.test('event_type filters by exact name; none means every type (fact 104)', async (t) => {
  const cases: { name: string; eventTypes: string[]; expected: string[] }[] = [
    { name: 'no filter', eventTypes: [], expected: ['event_stream_attached', 'status_update_event', 'api_post_event', 'deployment_success'] },
    { name: 'one type', eventTypes: ['api_post_event'], expected: ['api_post_event'] },
    { name: 'two types', eventTypes: ['deployment_success', 'status_update_event'], expected: ['status_update_event', 'deployment_success'] },
    { name: 'attached included', eventTypes: ['event_stream_attached'], expected: ['event_stream_attached'] },
    { name: 'unknown type matches nothing', eventTypes: ['no_such_event'], expected: [] },
    { name: 'no comma splitting', eventTypes: ['api_post_event,deployment_success'], expected: [] },
    { name: 'empty value matches nothing', eventTypes: [''], expected: [] },
    // pacer's own types (kill-storm protection) reach only clients that name them: Marathon clients reading every type never see one
    { name: 'a pacer_ type by name', eventTypes: ['pacer_unhealthy_kill_deferred_event'], expected: ['pacer_unhealthy_kill_deferred_event'] },
    { name: 'a pacer_ type beside Marathon\'s', eventTypes: ['pacer_unhealthy_kill_deferred_event', 'deployment_success'], expected: ['pacer_unhealthy_kill_deferred_event', 'deployment_success'] },
  ];
  for (const c of cases) {
    const { connect, bus, hub } = makeHub();
    const sink = connect({ eventTypes: c.eventTypes });
    bus.emit(coreEvent(1));
    hub.publish(apiEvent(2));
    bus.emit(coreEvent(4, 'pacer_unhealthy_kill_deferred_event'));
    bus.emit(coreEvent(3, 'deployment_success'));
    t.strictSame(typesOf(sink.parsed().events), c.expected, c.name);
  }
});

t.test('core and API events reach every client in the order they happened', async (t) => {
  const { connect, bus, hub } = makeHub();
  const sinks = [connect(), connect({ eventTypes: ['status_update_event', 'api_post_event'] })];
  bus.emit(coreEvent(1));
  hub.publish(apiEvent(2));
  bus.emit(coreEvent(3));
  bus.emit(coreEvent(4));
  hub.publish(apiEvent(5));
  for (const sink of sinks) {
    const seqs = sink.parsed().events.filter((e) => e.data.seq !== undefined).map((e) => e.data.seq);
    t.strictSame(seqs, [1, 2, 3, 4, 5]);
  }
});

t.test('each event is serialized once and the same frame goes to every client', async (t) => {
  const { connect, hub } = makeHub();
  const sinks = [connect(), connect(), connect({ eventTypes: ['api_post_event'] })];
  let serializations = 0;
  const event = { eventType: 'api_post_event', timestamp: 'x', toJSON: () => (serializations++, { eventType: 'api_post_event', n: 1 }) };
  hub.publish(event);
  t.equal(serializations, 1);
  const frames = sinks.map((s) => s.chunks[s.chunks.length - 1]);
  t.ok(frames.every((f) => f === frames[0]), 'one Buffer shared by all sockets');
  t.equal(frames[0].toString('utf8'), 'event: api_post_event\r\ndata: {"eventType":"api_post_event","n":1}\r\n\r\n');
});

t.test('an event nobody wants is never serialized', async (t) => {
  const { connect, hub } = makeHub();
  connect({ eventTypes: ['deployment_success'] });
  let serializations = 0;
  hub.publish({ eventType: 'api_post_event', timestamp: 'x', toJSON: () => (serializations++, {}) });
  t.equal(serializations, 0);
});

t.test('under backpressure frames queue, and drain flushes them in order', async (t) => {
  const { connect, bus } = makeHub();
  const sink = connect();
  sink.accepting = false;
  bus.emit(coreEvent(1));
  const writtenWhileBlocked = sink.chunks.length;
  bus.emit(coreEvent(2));
  bus.emit(coreEvent(3));
  t.equal(sink.chunks.length, writtenWhileBlocked, 'nothing is written while the socket pushes back');
  sink.drain();
  bus.emit(coreEvent(4));
  t.strictSame(sink.parsed().events.slice(1).map((e) => e.data.seq), [1, 2, 3, 4]);
  t.notOk(sink.destroyed);
});

t.test('a drain that meets new backpressure keeps the rest queued', async (t) => {
  const { connect, bus } = makeHub();
  const sink = connect();
  sink.accepting = false;
  for (let seq = 1; seq <= 4; seq++) bus.emit(coreEvent(seq));
  // The receiver takes two frames, then pushes back again.
  let accepted = 0;
  sink.write = function (chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return ++accepted < 2;
  };
  sink.emit('drain');
  t.strictSame(sink.parsed().events.slice(1).map((e) => e.data.seq), [1, 2, 3]);
  sink.write = function (chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  };
  sink.emit('drain');
  t.strictSame(sink.parsed().events.slice(1).map((e) => e.data.seq), [1, 2, 3, 4]);
});

t.test('a client 1024 frames behind stays; at 1025 it is disconnected and the others hear of it (fact 105)', async (t) => {
  const { hub, connect, bus } = makeHub();
  t.equal(DEFAULT_EVENT_BUFFER_SIZE, 1024);
  const observer = connect({ remoteAddress: '10.0.0.9', eventTypes: ['event_stream_detached'] });
  const slow = connect({ remoteAddress: '10.0.0.5', eventTypes: ['status_update_event'] });
  slow.accepting = false;
  bus.emit(coreEvent(0)); // written; the socket now pushes back
  for (let seq = 1; seq <= 1024; seq++) bus.emit(coreEvent(seq));
  t.notOk(slow.ended || slow.destroyed, '1024 queued frames are within the bound');
  t.equal(hub.subscriberCount, 2);
  bus.emit(coreEvent(1025));
  t.ok(slow.ended && !slow.destroyed, 'the 1025th queued frame disconnects: the stream is ended between two frames');
  t.equal(hub.subscriberCount, 1);
  t.strictSame(observer.parsed().events.map((e) => e.data), [
    { remoteAddress: '10.0.0.5', eventType: 'event_stream_detached', timestamp: '2026-01-01T00:00:00.000Z' },
  ]);
  slow.drain();
  slow.hangUp();
  bus.emit(coreEvent(1026));
  t.equal(slow.writesAfterClose, 0);
  t.equal(observer.parsed().events.length, 1, 'one detach, not two');
});

t.test('the backlog is bounded in bytes too: a slow client is disconnected once its queued frames pass bufferBytes, before 1024 of them', async (t) => {
  const { connect, bus, hub } = makeHub({ bufferBytes: 10_000 });
  const slow = connect({ remoteAddress: '10.0.0.8' });
  const fast = connect({ remoteAddress: '10.0.0.9' });
  slow.accepting = false;
  const big = (seq: number) => ({ ...coreEvent(seq), blob: 'x'.repeat(3000) });
  bus.emit(big(1)); // written; the sink pushes back from now on
  for (let seq = 2; seq <= 4; seq++) bus.emit(big(seq)); // three queued frames, about 9 KB
  t.notOk(slow.ended || slow.destroyed, 'about 9 KB queued: within the bound');
  t.equal(hub.subscriberCount, 2);
  bus.emit(big(5)); // about 12 KB queued
  t.ok(slow.ended, 'past 10,000 bytes: disconnected (5 frames, far below 1024)');
  t.equal(hub.subscriberCount, 1);
  t.match(fast.parsed().events.at(-1)?.data, { eventType: 'event_stream_detached', remoteAddress: '10.0.0.8' });
  t.equal(DEFAULT_EVENT_BUFFER_BYTES, 16 * 1024 * 1024, 'the documented default (README, /v2/events)');
});

t.test('drained frames no longer count toward the byte bound', async (t) => {
  const { connect, bus } = makeHub({ bufferBytes: 10_000 });
  const sink = connect();
  const big = (seq: number) => ({ ...coreEvent(seq), blob: 'x'.repeat(3000) });
  for (let round = 0; round < 5; round++) {
    sink.accepting = false;
    for (let seq = 0; seq < 3; seq++) bus.emit(big(seq));
    sink.drain();
  }
  t.notOk(sink.ended || sink.destroyed, '15 big frames in all, never more than 3 queued at once');
});

t.test('a slow client is detached after the event that overflowed it reached everyone', async (t) => {
  const { connect, bus } = makeHub({ bufferSize: 2 });
  const slow = connect({ remoteAddress: '10.0.0.5' });
  const fast = connect({ remoteAddress: '10.0.0.6' });
  slow.accepting = false;
  for (let seq = 1; seq <= 4; seq++) bus.emit(coreEvent(seq));
  t.ok(slow.ended);
  const tail = fast.parsed().events.slice(-2).map((e) => [e.event, e.data.seq ?? e.data.remoteAddress]);
  t.strictSame(tail, [['status_update_event', 4], ['event_stream_detached', '10.0.0.5']]);
});

t.test('a client that hangs up is detached, and the others get event_stream_detached', async (t) => {
  const { hub, connect, bus, clock } = makeHub();
  const leaving = connect({ remoteAddress: '10.0.0.7' });
  const staying = connect();
  clock.now += 5;
  leaving.hangUp();
  bus.emit(coreEvent(1));
  t.equal(hub.subscriberCount, 1);
  t.equal(leaving.writesAfterClose, 0);
  t.strictSame(typesOf(leaving.parsed().events), ['event_stream_attached', 'event_stream_attached']);
  const detached = staying.parsed().events.find((e) => e.event === 'event_stream_detached');
  t.strictSame(detached?.data, { remoteAddress: '10.0.0.7', eventType: 'event_stream_detached', timestamp: '2026-01-01T00:00:00.005Z' });
});

t.test('a socket error detaches the client like a hang-up', async (t) => {
  const { hub, connect } = makeHub();
  const sink = connect();
  sink.emit('error');
  t.equal(hub.subscriberCount, 0);
  t.ok(sink.destroyed);
});

t.test('keep-alives go to idle clients only and never count toward the bound', async (t) => {
  const { hub, connect, bus } = makeHub({ bufferSize: 1 });
  const idle = connect({ eventTypes: ['nothing'] });
  const blocked = connect({ eventTypes: ['status_update_event'] });
  blocked.accepting = false;
  bus.emit(coreEvent(1));
  bus.emit(coreEvent(2)); // queued: the backlog is at the bound
  const blockedWrites = blocked.chunks.length;
  hub.keepAlive();
  hub.keepAlive();
  t.equal(idle.parsed().keepAlives, 2);
  t.equal(idle.text(), '\r\n\r\n');
  t.equal(blocked.chunks.length, blockedWrites, 'nothing written to a socket that pushes back');
  t.notOk(blocked.ended || blocked.destroyed);
  t.equal(hub.subscriberCount, 2);
});

t.test('the keep-alive timer runs while clients are attached', async (t) => {
  const clock = FakeTimers.install({ toFake: ['setInterval', 'clearInterval'] });
  t.teardown(() => clock.uninstall());
  const { connect } = makeHub({ keepAliveMs: 1000 });
  t.equal(clock.countTimers(), 0, 'no timer without clients');
  const sink = connect({ eventTypes: ['nothing'] });
  clock.tick(3000);
  t.equal(sink.parsed().keepAlives, 3);
  sink.hangUp();
  t.equal(clock.countTimers(), 0, 'the timer stops with the last client');
});

t.test('close ends every stream, stops listening to the core and refuses new clients', async (t) => {
  const { hub, connect, bus } = makeHub();
  const idle = connect();
  const blocked = connect();
  blocked.accepting = false;
  bus.emit(coreEvent(1));
  bus.emit(coreEvent(2));
  hub.close();
  t.ok(idle.ended, 'an idle stream ends gracefully');
  t.ok(blocked.destroyed, 'a stream with a backlog is dropped');
  t.equal(bus.listenerCount, 0);
  t.equal(hub.subscriberCount, 0);
  bus.emit(coreEvent(3));
  hub.publish(apiEvent(4));
  idle.hangUp();
  t.equal(idle.writesAfterClose + blocked.writesAfterClose, 0);
  const late = connect();
  t.ok(late.ended);
  t.equal(late.chunks.length, 0);
  hub.close();
});

t.test('a sink that throws is disconnected instead of breaking the core', async (t) => {
  const { hub, connect, bus } = makeHub();
  const broken = connect({ remoteAddress: '10.0.0.3' });
  const other = connect();
  broken.write = () => {
    throw new Error('socket exploded');
  };
  t.doesNotThrow(() => bus.emit(coreEvent(1)));
  t.ok(broken.destroyed);
  t.equal(hub.subscriberCount, 1);
  t.strictSame(typesOf(other.parsed().events).slice(-2), ['status_update_event', 'event_stream_detached']);
});

t.test('a slow client\'s stream is ended between frames; a connection not read out within endGraceMs is dropped', async (t) => {
  const cases: { name: string; after: 'reads out' | 'never reads' | 'server closes' | 'sink throws'; destroyedAtGrace: boolean }[] = [
    { name: 'the client reads its tail and the connection closes', after: 'reads out', destroyedAtGrace: false },
    { name: 'the client never reads again: dropped at the grace', after: 'never reads', destroyedAtGrace: true },
    { name: 'the server closes during the grace: dropped at once', after: 'server closes', destroyedAtGrace: true },
    { name: 'a sink that throws is dropped at once, no grace', after: 'sink throws', destroyedAtGrace: true },
  ];
  for (const c of cases) {
    const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { hub, connect, bus } = makeHub({ bufferSize: 2, endGraceMs: 5000 });
      const slow = connect({ remoteAddress: '10.0.0.5', eventTypes: ['status_update_event'] });
      if (c.after === 'sink throws') {
        slow.write = () => {
          throw new Error('socket exploded');
        };
      } else slow.accepting = false;
      for (let seq = 1; seq <= 4; seq++) bus.emit(coreEvent(seq));
      t.equal(hub.subscriberCount, 0, `${c.name}: detached`);
      if (c.after === 'sink throws') {
        t.ok(slow.destroyed, `${c.name}: destroyed`);
        t.equal(hub.endingCount, 0, `${c.name}: nothing waits`);
        continue;
      }
      t.ok(slow.ended && !slow.destroyed, `${c.name}: ended, not cut`);
      t.equal(hub.endingCount, 1, `${c.name}: its ended stream is open`);
      clock.tick(4999);
      t.notOk(slow.destroyed, `${c.name}: not dropped within the grace`);
      if (c.after === 'reads out') slow.hangUp();
      if (c.after === 'server closes') hub.close();
      clock.tick(1);
      t.equal(hub.endingCount, 0, `${c.name}: forgotten`);
      t.equal(clock.countTimers(), 0, `${c.name}: no timer left`);
      if (c.destroyedAtGrace) t.ok(slow.destroyed, `${c.name}: dropped`);
      t.equal(slow.writesAfterClose, 0, `${c.name}: nothing written after the end`);
    } finally {
      clock.uninstall();
    }
  }
});
