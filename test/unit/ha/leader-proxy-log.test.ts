import Fastify, { type FastifyBaseLogger } from 'fastify';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pino from 'pino';
import t, { type Test } from 'tap';
import { leaderProxy } from '../../../src/ha/leader-proxy';
import { logRequestCompleted } from '../../../src/api/request-log';
import { RequestLifecycle } from '../../../src/api/request-lifecycle';
import { waitFor, within } from '../../harness/wait';

// A standby whose leader cannot be reached answers every request 502 (or 504). reply-from wrote a
// `warn` of its own for each ("response errored", with the error's whole stack) beside pacer's
// record of the request: two warnings and a stack per request for as long as the leader was down.
// Its records now go to `debug`; pacer's own record of each request keeps its level, the leader's
// 5xx answers included.

interface LogRecord { level: number; msg: string; status?: number; err?: { stack?: string } }

const WARN = 40;
const DEBUG = 20;

/** A standby (leader proxy and pacer's request record) whose log lines are kept, at `level`. */
async function standby(t: Test, leader: string, level: 'info' | 'debug'): Promise<{ url: string; records: LogRecord[] }> {
  const records: LogRecord[] = [];
  const log = pino({ level }, { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) });
  const app = Fastify({ loggerInstance: log as FastifyBaseLogger, disableRequestLogging: true });
  app.addHook('onResponse', (request, reply, done) => {
    logRequestCompleted(null, request, reply);
    done();
  });
  await app.register(leaderProxy, {
    scheme: 'http',
    leadership: { self: '127.0.0.1:1', serving: () => false, leader: () => leader, nextChange: async () => undefined, onChange: () => undefined },
  });
  app.get('/v2/apps', async () => ({ servedBy: 'the standby' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, records };
}

/** A port nothing listens on (one that was just given up). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A leader answering every request with `status`. */
async function leaderAnswering(t: Test, status: number): Promise<string> {
  const server = http.createServer((_req, res) => res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"message":"from the leader"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('a leader that cannot be reached: one warn per request (pacer\'s, with the 502), reply-from\'s stack at debug', async (t) => {
  const leader = `127.0.0.1:${await closedPort()}`;
  for (const level of ['info', 'debug'] as const) {
    const { url, records } = await standby(t, leader, level);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/v2/apps`);
      t.equal(res.status, 502, `${level}: request ${i} answered 502`);
      t.match(await res.json(), { message: 'Connection to leader refused.' }, 'Marathon\'s text');
    }
    const warnings = records.filter((r) => r.level >= WARN);
    t.equal(warnings.length, 3, `${level}: one warning per request`);
    t.ok(warnings.every((r) => r.status === 502 && r.err === undefined), `${level}: each is the request's record, without a stack`);
    const proxyRecords = records.filter((r) => r.msg === 'response errored');
    if (level === 'info') t.equal(proxyRecords.length, 0, 'reply-from\'s records are not written at info');
    else {
      t.equal(proxyRecords.length, 3, 'at debug, reply-from\'s record of each');
      t.ok(proxyRecords.every((r) => r.level === DEBUG && (r.err?.stack ?? '').includes('ECONNREFUSED')), 'at level debug, with the stack');
    }
  }
});

t.test('a leader that answers: the request\'s record keeps its level (warn for its 5xx, info otherwise)', async (t) => {
  for (const [status, level] of [[500, WARN], [503, WARN], [200, 30], [404, 30]] as const) {
    const { url, records } = await standby(t, await leaderAnswering(t, status), 'debug');
    const res = await fetch(`${url}/v2/apps`);
    t.equal(res.status, status, `the leader's ${status}`);
    t.same(await res.json(), { message: 'from the leader' });
    const own = records.filter((r) => r.status === status);
    t.equal(own.length, 1, `${status}: one record of the request`);
    t.equal(own[0]?.level, level, `${status}: at its level`);
  }
});

t.test('a forwarded event stream the client leaves: pacer\'s one record of the request, none of fastify\'s', async (t) => {
  const leaderSockets = new Set<Socket>();
  const leader = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream;charset=UTF-8' });
    res.write('event: event_stream_attached\ndata: {}\n\n');
  });
  leader.on('connection', (s) => {
    leaderSockets.add(s);
    s.on('close', () => leaderSockets.delete(s));
  });
  await new Promise<void>((resolve) => leader.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of leaderSockets) s.destroy();
    leader.close();
  });
  const records: (LogRecord & { path?: string; client?: string })[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) });
  const app = Fastify({ loggerInstance: log as FastifyBaseLogger, logController: new RequestLifecycle(() => undefined, true) });
  await app.register(leaderProxy, {
    scheme: 'http',
    leadership: {
      self: '127.0.0.1:1', serving: () => false, leader: () => `127.0.0.1:${(leader.address() as AddressInfo).port}`,
      nextChange: async () => undefined, onChange: () => undefined,
    },
  });
  app.get('/v2/events', async () => ({ servedBy: 'the standby' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const port = (app.server.address() as AddressInfo).port;
  const request = http.get({ host: '127.0.0.1', port, path: '/v2/events', headers: { Accept: 'text/event-stream' } });
  const response = await within(new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  }), 'the stream\'s headers through the standby');
  t.equal(response.statusCode, 200, 'the leader\'s stream');
  await within(new Promise((resolve) => response.once('data', resolve)), 'the first event');
  request.destroy();
  await waitFor(() => records.some((r) => r.path === '/v2/events'), 'the record of the request');
  // Anything fastify would write about the close is written with it, at once.
  await new Promise((resolve) => setImmediate(resolve));
  const own = records.filter((r) => r.path === '/v2/events');
  t.equal(own.length, 1, 'one record of the request');
  t.match(own[0], { status: 200, client: '127.0.0.1', method: 'GET' }, 'with pacer\'s fields');
  t.same(records.filter((r) => r.msg === 'stream closed prematurely'), [], 'no record of fastify\'s own');
});
