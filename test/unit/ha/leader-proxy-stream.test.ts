import Fastify from 'fastify';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import t from 'tap';
import { leaderProxy } from '../../../src/ha/leader-proxy';
import { within } from '../../harness/wait';

// A standby forwards `/v2/events` to the leader. The leader answers a stream's status and
// headers at once and then writes nothing until an event the client asked for happens (or its
// keep-alive, 10 s later). The client must see that 200 at once too, as it would from the leader
// (Marathon's standby redirects it there): eventsource (marathon-node 1.1.0's
// `events.createEventSource({eventType: …})`, marathon-event-bus-client 0.1.7) fires `open` only
// then, and the bus client its `subscribed`. The leader here never writes a body byte, so a
// standby that held the headers back until the first one would never answer.

const EVENTS_HEADERS = { 'Content-Type': 'text/event-stream;charset=UTF-8', Connection: 'close', 'Cache-Control': 'no-cache, no-store, must-revalidate' };

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The status and headers of a GET, once they arrive (the body is never read to its end). */
function headersOf(port: number, path: string): { response: Promise<http.IncomingMessage>; request: http.ClientRequest } {
  let request!: http.ClientRequest;
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get({ host: '127.0.0.1', port, path, headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' } }, resolve);
    request.on('error', reject);
  });
  return { response, request };
}

const CASES: [string, string][] = [
  ['marathon-node createEventSource({eventType: "deployment_success"})', '/v2/events?event_type=deployment_success'],
  ['marathon-node createEventSource({eventType: [two types]})', '/v2/events?event_type=deployment_info&event_type=status_update_event'],
  ['marathon-event-bus-client (no filter)', '/v2/events'],
];

t.test('a standby answers a forwarded /v2/events stream\'s status and headers as soon as the leader does, before any event', async (t) => {
  const leaderSockets = new Set<Socket>();
  const leader = http.createServer((req, res) => {
    if (req.url?.startsWith('/v2/events') === true) {
      res.writeHead(200, EVENTS_HEADERS);
      res.flushHeaders();
      return; // no event yet: nothing more is written
    }
    res.writeHead(404).end();
  });
  leader.on('connection', (s) => {
    leaderSockets.add(s);
    s.on('close', () => leaderSockets.delete(s));
  });
  const leaderPort = await listen(leader);
  t.teardown(() => {
    for (const s of leaderSockets) s.destroy();
    leader.close();
  });

  const standby = Fastify();
  await standby.register(leaderProxy, {
    scheme: 'http',
    leadership: {
      self: '127.0.0.1:1', serving: () => false, leader: () => `127.0.0.1:${leaderPort}`,
      nextChange: async () => undefined, onChange: () => undefined,
    },
  });
  standby.get('/v2/events', async (_req, reply) => reply.code(500).send({ message: 'served by the standby' }));
  await standby.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => standby.close());
  const standbyPort = (standby.server.address() as AddressInfo).port;

  for (const [client, path] of CASES) {
    const { response, request } = headersOf(standbyPort, path);
    const res = await within(response, `the 200 of ${path} through the standby (${client})`);
    t.equal(res.statusCode, 200, client);
    t.equal(res.headers['content-type'], 'text/event-stream;charset=UTF-8', client);
    t.equal(res.headers['x-marathon-via'], '1.1 127.0.0.1:1', client);
    request.destroy();
  }
});
