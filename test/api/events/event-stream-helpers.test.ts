import t from 'tap';
import { acceptsEventStream } from '../../../src/api/events/accepts-event-stream';
import { clientAddress } from '../../../src/api/events/client-address';
import { KEEP_ALIVE_FRAME, sseFrame } from '../../../src/api/events/sse-frame';
import { streamMembershipEvent } from '../../../src/api/events/stream-membership-event';

t.test('frames are `event:` + one-line `data:` with CRLF ends (fact 102)', async (t) => {
  const event = { eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', appDefinition: { cmd: 'echo a\nb\r\nc' } };
  const frame = sseFrame(event).toString('utf8');
  t.equal(frame, `event: api_post_event\r\ndata: ${JSON.stringify(event)}\r\n\r\n`);
  t.equal(frame.split('\r\n').length, 4, 'line breaks inside strings stay escaped');
  t.strictSame(JSON.parse(frame.split('\r\n')[1].slice('data: '.length)), event);
  t.equal(KEEP_ALIVE_FRAME.toString('latin1'), '\r\n');
});

t.test('non-ASCII text is UTF-8 encoded', async (t) => {
  const frame = sseFrame({ eventType: 'x', label: 'héllo ☃' } as { eventType: string });
  t.match(frame.toString('utf8'), /héllo ☃/);
  t.equal(frame.length, Buffer.byteLength(frame.toString('utf8')));
});

t.test('which Accept headers ask for the stream (fact 101, liberal)', async (t) => {
  const cases: [string | undefined, boolean][] = [
    ['text/event-stream', true],
    ['TEXT/Event-Stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['application/json, text/event-stream', true],
    [' text/event-stream ', true],
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/*', false],
    ['application/json', false],
    ['text/event-streams', false],
  ];
  for (const [accept, expected] of cases) t.equal(acceptsEventStream(accept), expected, String(accept));
});

t.test('client addresses show IPv4-mapped IPv6 as IPv4', async (t) => {
  const cases: [string | undefined, string][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::FFFF:10.1.2.3', '10.1.2.3'],
    ['::1', '::1'],
    ['fe80::1', 'fe80::1'],
    [undefined, ''],
  ];
  for (const [raw, expected] of cases) t.equal(clientAddress(raw), expected, String(raw));
});

t.test('attach/detach events are {remoteAddress, eventType, timestamp} (fact 103)', async (t) => {
  t.strictSame(streamMembershipEvent('event_stream_detached', '10.0.0.1', Date.UTC(2026, 6, 27, 14, 40, 33, 123)), {
    remoteAddress: '10.0.0.1',
    eventType: 'event_stream_detached',
    timestamp: '2026-07-27T14:40:33.123Z',
  });
});
