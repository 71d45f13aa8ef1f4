import net from 'node:net';
import t from 'tap';
import type { ApiEvent } from '../../../src/api/api-deps';
import { sseFrame } from '../../../src/api/events/sse-frame';
import { RawSseClient } from './raw-sse-client';
import { startSseServer } from './sse-server-fixture';
import { waitUntil } from './wait-until';

/** 64 KiB of payload per event, so a few hundred events fill any socket buffer between two local peers. */
const BLOB = 'x'.repeat(64 * 1024);

function bigEvent(seq: number): ApiEvent {
  return { eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', seq, appDefinition: { id: '/big', blob: BLOB } };
}

interface StalledClient {
  readonly socket: net.Socket;
  closed(): boolean;
  /** Bytes read after `catchUp`. */
  readBytes(): number;
  /** Starts reading at last (TCP only shows the server's close to a reader). */
  catchUp(): void;
}

/** A client that sends the request and then reads nothing until told to. */
function connectStalled(port: number): StalledClient {
  let closed = false;
  let bytes = 0;
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined); // a reset from the server is an expected outcome
  socket.on('close', () => (closed = true));
  socket.write('GET /v2/events?event_type=api_post_event HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
  socket.pause();
  return {
    socket,
    closed: () => closed,
    readBytes: () => bytes,
    catchUp: () => socket.on('data', (chunk: Buffer) => (bytes += chunk.length)).resume(),
  };
}

t.test('a client that stops reading is disconnected once its backlog passes the bound (fact 105)', async (t) => {
  const server = await startSseServer({ bufferSize: 16 });
  t.teardown(() => server.app.close());
  const observer = await RawSseClient.open(server.baseUrl, '/v2/events?event_type=event_stream_detached');
  t.teardown(() => observer.close());
  const slow = connectStalled(server.port);
  t.teardown(() => slow.socket.destroy());
  await waitUntil(() => server.hub.subscriberCount === 2, 'the slow client to attach');

  let published = 0;
  while (server.hub.subscriberCount === 2 && published < 2000) server.deps.events.publish(bigEvent(published++));

  t.equal(server.hub.subscriberCount, 1, 'the slow client was dropped');
  t.ok(published > 16, `dropped only after its socket pushed back and 16 frames queued (${published} published)`);
  await waitUntil(() => observer.parsed().events.length > 0, 'the detached event');
  t.match(observer.parsed().events[0].data, { remoteAddress: '127.0.0.1', eventType: 'event_stream_detached' });
  t.notOk(observer.closed, 'the observer stays attached');
  slow.catchUp();
  await waitUntil(slow.closed, 'the slow connection to end once read');
  const frameBytes = sseFrame(bigEvent(0)).length;
  t.ok(slow.readBytes() < published * frameBytes, 'the backlog was discarded with the connection');
});

t.test('a client that pauses and resumes within the bound loses nothing, in order', async (t) => {
  const server = await startSseServer();
  t.teardown(() => server.app.close());
  const client = await RawSseClient.open(server.baseUrl, '/v2/events?event_type=api_post_event');
  t.teardown(() => client.close());
  await waitUntil(() => server.hub.subscriberCount === 1, 'the client to attach');
  client.pause();
  const count = 300; // ~19 MiB: more than the sockets hold, fewer frames than the 1024 bound
  for (let seq = 0; seq < count; seq++) server.deps.events.publish(bigEvent(seq));
  t.equal(server.hub.subscriberCount, 1, 'still attached while paused');
  client.resume();
  const lastFrame = sseFrame(bigEvent(count - 1)).toString('utf8');
  await waitUntil(() => client.text.endsWith(lastFrame), `all ${count} events`);
  const seqs = client.parsed().events.map((e) => e.data.seq);
  t.strictSame(seqs, Array.from({ length: count }, (_, i) => i));
});
