import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { buildServer } from '../../src/api/server';
import { ApiListeners } from '../../src/runtime/api-listeners';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { makeApi } from '../api/api-fixture';

/**
 * Requests that Node's HTTP server refuses before any route sees them, on a real socket through
 * the runtime's listeners (src/runtime/api-listeners.ts). Node answered these itself: an HTTP/1.1
 * request without `Host` got `400` with an empty body, an `Expect` other than `100-continue` got
 * `417` with an empty body, and `CONNECT` got its connection closed without an answer. Every bad
 * request gets a 4xx with Marathon's `{"message"}` body now.
 */
async function serve(tt: Test): Promise<number> {
  const config: PacerConfig = { ...defaultConfig(process.cwd()), address: '127.0.0.1', port: 0 };
  const listeners = new ApiListeners(config);
  const api = makeApi();
  const app = buildServer({ deps: api.deps, stream: { close: () => undefined }, serverFactory: listeners.serverFactory });
  const listening = await listeners.listen(app);
  tt.teardown(async () => {
    await Promise.all([app.close(), listeners.close()]);
    await api.app.close();
  });
  return Number(listening[0].address.split(':').pop());
}

/** Sends `text` and reads until the server closes the connection (or 3 s pass). */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => { clearTimeout(timer); socket.destroy(); resolve(Buffer.concat(chunks).toString('latin1')); };
    const timer = setTimeout(done, 3000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', done);
    socket.on('error', done);
    socket.write(text);
  });
}

/** Status and JSON body of a raw response (chunked or not). */
function parsed(response: string): { status: number; contentType: string | undefined; body: unknown } {
  const [head, ...rest] = response.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? -1);
  const contentType = /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1];
  let text = rest.join('\r\n\r\n');
  if (/\r\ntransfer-encoding: chunked/i.test(head)) text = text.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '');
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status, contentType, body };
}

const rows: { name: string; request: string; status: number; message: RegExp }[] = [
  { name: 'HTTP/1.1 without Host', request: 'GET /v2/info HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400, message: /Host header/ },
  { name: 'an Expect pacer does not meet', request: 'POST /v2/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}', status: 417, message: /Expect: 200-ok/ },
  { name: 'CONNECT', request: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n', status: 405, message: /CONNECT/ },
];

t.test('requests Node refuses itself get a 4xx with a Marathon-shaped {"message"}', async (t) => {
  const port = await serve(t);
  for (const row of rows) {
    const res = parsed(await exchange(port, row.request));
    t.equal(res.status, row.status, `${row.name}: status`);
    t.match(res.contentType, /^application\/json/, `${row.name}: JSON`);
    t.match(res.body, { message: row.message }, `${row.name}: body ${JSON.stringify(res.body)}`);
  }
});

t.test('what is fine stays fine: HTTP/1.0 without Host, Expect: 100-continue', async (t) => {
  const port = await serve(t);
  t.equal(parsed(await exchange(port, 'GET /v2/info HTTP/1.0\r\n\r\n')).status, 200, 'HTTP/1.0 needs no Host');
  const body = '{"id":"/a","cmd":"sleep 1","instances":0}';
  const raw = await exchange(port, `POST /v2/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  t.match(raw, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /, '100 Continue, then the app is created');
});

t.test('connections beyond the bound are closed when accepted; once one closes, a new one is served', async (t) => {
  const config: PacerConfig = { ...defaultConfig(process.cwd()), address: '127.0.0.1', port: 0 };
  const listeners = new ApiListeners(config, 3);
  const api = makeApi();
  const app = buildServer({ deps: api.deps, stream: { close: () => undefined }, serverFactory: listeners.serverFactory });
  const port = Number((await listeners.listen(app))[0].address.split(':').pop());
  t.teardown(async () => {
    await Promise.all([app.close(), listeners.close()]);
    await api.app.close();
  });
  // Three idle connections (a client that sends nothing) take the three places.
  const idle = await Promise.all([0, 1, 2].map(() => new Promise<ReturnType<typeof connect>>((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => undefined);
  })));
  // Their handshakes completed first, so the server accepts them before the next one (the
  // listen backlog is first in, first out).
  const refused = await exchange(port, 'GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.equal(refused, '', 'the fourth connection is closed without an answer');
  idle[0].destroy();
  const served = await waitAnswer(port);
  t.match(served, /^HTTP\/1\.1 200/, 'a place freed: a new connection is served');
  for (const s of idle) s.destroy();
});

/** Retries a /ping until it is answered (the server notices a closed connection a moment later); bounded. */
async function waitAnswer(port: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const answer = await exchange(port, 'GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    if (answer !== '') return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return '';
}

// Marathon's Jetty connectors keep an idle connection 30 s (`HttpModule.scala`,
// `connector.setIdleTimeout(30000)`); pacer's listeners kept Node's 5 s, so a client that reused
// a kept-alive connection after a pause of about 5 s (Go's net/http keeps them 90 s, go-marathon
// and Traefik use it) could send its request as pacer closed the socket: `connection reset by
// peer`, which Go does not retry for POST/PUT/DELETE and go-marathon answers by marking the host
// down ("all the Marathon hosts are presently down").
t.test('a kept-alive connection is kept idle 30 s, as Marathon\'s Jetty keeps it: the answer says timeout=30 and the socket serves the next request', async (t) => {
  const port = await serve(t);
  const socket = connect(port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (text += d));
  const answers = (): number => (text.match(/HTTP\/1\.1 200 OK\r\n/g) ?? []).length;
  socket.write('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor(() => answers() === 1);
  t.match(text, /\r\nKeep-Alive: timeout=30\r\n/i, text);
  socket.write('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor(() => answers() === 2);
  t.equal(answers(), 2, 'the same connection answered again');
});

/** Waits until `done()` holds, bounded (10 s). */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}
