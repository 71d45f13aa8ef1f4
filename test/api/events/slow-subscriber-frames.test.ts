import net from 'node:net';
import t from 'tap';
import type { ApiEvent } from '../../../src/api/api-deps';
import { startSseServer } from './sse-server-fixture';
import { waitUntil } from './wait-until';

/**
 * A slow `/v2/events` client that is disconnected (fact 105) must see the stream end between two
 * frames: every byte it reads, over a real TCP connection on 127.0.0.1, is a complete HTTP/1.1
 * chunked response (its last chunk included) of complete SSE frames, in order, without a gap,
 * never a `data:` line cut short. The frames are of odd and varying sizes so that the socket's
 * partial writes fall inside frames.
 */

function event(seq: number, payloadBytes: (seq: number) => number): ApiEvent {
  return { eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', seq, appDefinition: { id: '/big', blob: 'x'.repeat(payloadBytes(seq)) } };
}

interface RawClient {
  readonly socket: net.Socket;
  /** Every byte read (after `read()`). */
  bytes(): Buffer;
  /** The server ended the connection (FIN) rather than resetting it. */
  ended(): boolean;
  closed(): boolean;
  errors(): string[];
  /** Starts reading (TCP only shows the server's end to a reader). */
  read(): void;
}

/** Sends the request and then reads nothing until `read()`. */
function connectPaused(port: number): RawClient {
  const chunks: Buffer[] = [];
  const errors: string[] = [];
  let ended = false;
  let closed = false;
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
  socket.on('end', () => (ended = true));
  socket.on('close', () => (closed = true));
  socket.write('GET /v2/events?event_type=api_post_event HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
  socket.pause();
  return {
    socket,
    bytes: () => Buffer.concat(chunks),
    ended: () => ended,
    closed: () => closed,
    errors: () => errors,
    read: () => socket.on('data', (chunk: Buffer) => chunks.push(chunk)).resume(),
  };
}

/** The head and the de-chunked body of a raw HTTP/1.1 response; `complete` when its last (zero) chunk arrived. */
function splitResponse(raw: Buffer): { head: string; body: Buffer; complete: boolean } {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error('no complete response head');
  const head = raw.subarray(0, headEnd).toString('latin1');
  if (!/\r\ntransfer-encoding: chunked/i.test(head)) return { head, body: raw.subarray(headEnd + 4), complete: false };
  const parts: Buffer[] = [];
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return { head, body: Buffer.concat(parts), complete: false };
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return { head, body: Buffer.concat(parts), complete: raw.subarray(lineEnd, lineEnd + 4).toString('latin1') === '\r\n\r\n' };
    const start = lineEnd + 2;
    if (start + size + 2 > raw.length) {
      parts.push(raw.subarray(start, Math.min(raw.length, start + size)));
      return { head, body: Buffer.concat(parts), complete: false };
    }
    parts.push(raw.subarray(start, start + size));
    at = start + size + 2;
  }
}

const FRAME = /^event: ([a-z_]+)\r\ndata: ([^\r\n]*)\r\n\r\n/;

/** Complete frames in order, and whatever follows the last complete one (must be nothing). */
function frames(body: string): { seqs: number[]; rest: string } {
  const seqs: number[] = [];
  let rest = body;
  for (let m = FRAME.exec(rest); m !== null; m = FRAME.exec(rest)) {
    const data = JSON.parse(m[2]) as { eventType: string; seq: number };
    if (data.eventType !== m[1]) throw new Error(`event: ${m[1]} but eventType ${data.eventType}`);
    seqs.push(data.seq);
    rest = rest.slice(m[0].length);
  }
  return { seqs, rest };
}

const cases: { name: string; bufferSize?: number; bufferBytes?: number; payloadBytes: (seq: number) => number; cap: number }[] = [
  { name: 'frame bound (16), 64 KiB frames of odd sizes', bufferSize: 16, payloadBytes: (seq) => 64 * 1024 + 7 + (seq % 13), cap: 4000 },
  { name: 'frame bound (64), small frames of varying size', bufferSize: 64, payloadBytes: (seq) => 300 + ((seq * 7919) % 1700), cap: 200_000 },
  { name: 'byte bound (200 KB), frames of varying size', bufferBytes: 200_000, payloadBytes: (seq) => 20_000 + ((seq * 104_729) % 30_011), cap: 20_000 },
];

for (const c of cases) {
  t.test(`a slow client disconnected by the ${c.name} reads whole frames, then the end of the response`, async (t) => {
    const server = await startSseServer({ ...(c.bufferSize === undefined ? {} : { bufferSize: c.bufferSize }), ...(c.bufferBytes === undefined ? {} : { bufferBytes: c.bufferBytes }) });
    t.teardown(() => server.app.close());
    const slow = connectPaused(server.port);
    t.teardown(() => slow.socket.destroy());
    await waitUntil(() => server.hub.subscriberCount === 1, 'the slow client to attach');

    let published = 0;
    while (server.hub.subscriberCount === 1 && published < c.cap) server.deps.events.publish(event(published++, c.payloadBytes));
    t.equal(server.hub.subscriberCount, 0, `disconnected (${published} published)`);

    slow.read();
    await waitUntil(slow.closed, 'the connection to close once read');
    t.ok(slow.ended(), 'the server ended the connection (FIN), it did not reset it');
    t.same(slow.errors(), [], 'no socket error');
    const { head, body, complete } = splitResponse(slow.bytes());
    t.match(head, /^HTTP\/1\.1 200 /);
    t.ok(complete, 'the chunked response is complete: its last chunk arrived');
    const { seqs, rest } = frames(body.toString('utf8'));
    t.equal(rest, '', 'nothing after the last complete frame: no frame cut short');
    t.ok(seqs.length > 0 && seqs.length < published, `a prefix of the events (${seqs.length} of ${published}): the backlog was discarded`);
    t.same(seqs, Array.from({ length: seqs.length }, (_, i) => i), 'in order, none skipped before the end');
    t.equal(server.hub.endingCount, 0, 'nothing left of it in the hub');
  });
}

t.test('a disconnected client that never reads again is dropped after the grace period', async (t) => {
  const server = await startSseServer({ bufferSize: 16, endGraceMs: 200 });
  t.teardown(() => server.app.close());
  let served: net.Socket | undefined;
  server.app.server.once('connection', (socket: net.Socket) => (served = socket));
  const slow = connectPaused(server.port);
  t.teardown(() => slow.socket.destroy());
  await waitUntil(() => server.hub.subscriberCount === 1, 'the slow client to attach');
  let published = 0;
  while (server.hub.subscriberCount === 1 && published < 4000) server.deps.events.publish(event(published++, () => 64 * 1024 + 7));
  t.equal(server.hub.subscriberCount, 0, 'disconnected');
  t.equal(server.hub.endingCount, 1, 'its stream ended, waiting to be read');
  // What the server's kernel had taken of the stream (node's count less what node still holds).
  let handedToKernel = 0;
  await waitUntil(() => {
    if (served !== undefined && !served.destroyed) handedToKernel = served.bytesWritten - served.writableLength;
    return server.hub.endingCount === 0;
  }, 'the connection to be dropped after the grace period');
  slow.read();
  await waitUntil(slow.closed, 'the client to see the connection gone');
  // Before 2026-12-03 it was closed (FIN): the kernel kept the unread tail (megabytes here) and
  // sent it on, to the end of the response, for as long as the client took to read it.
  t.ok(handedToKernel > 0, `the server's kernel had taken ${handedToKernel} bytes`);
  t.ok(slow.bytes().length < handedToKernel, `reset: the client read ${slow.bytes().length} bytes, not all ${handedToKernel} the kernel had (the unread tail was discarded)`);
  t.notOk(splitResponse(slow.bytes()).complete, 'the end of the response never arrived');
});
