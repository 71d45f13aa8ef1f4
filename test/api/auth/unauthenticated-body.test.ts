import t, { type Test } from 'tap';
import { connect } from 'node:net';
import { serveWithAuth } from './served-api';
import { basic, openAuth } from './auth-kit';

/**
 * A client without credentials must not hold a connection by sending a body slowly (or an endless
 * chunked one): the 401 is written at once, before the body is read, and the connection is closed
 * after it instead of being kept to drain the body (Node's default would drain it for up to
 * `requestTimeout`, 5 minutes).
 */
async function serve(tt: Test): Promise<number> {
  const auth = openAuth({ httpCredentials: 'admin:s3cret' });
  const address = await serveWithAuth(tt, auth);
  return Number(address.split(':')[1]);
}

/** Generous: the connection closes within milliseconds; without the fix it stays 5 minutes. */
const CLOSE_BOUND_MS = 20_000;

/**
 * Sends `head`, then `drip` every 200 ms (a body that never ends, as a slow client sends it);
 * what was answered, and whether the server closed the socket within {@link CLOSE_BOUND_MS}.
 */
function sendAndWait(port: number, head: string, drip: string): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const dripping = setInterval(() => { if (socket.writable) socket.write(drip); }, 200);
    socket.on('data', (d: Buffer) => { answer += d.toString('latin1'); });
    socket.on('error', () => undefined);
    const bound = setTimeout(() => { socket.destroy(); }, CLOSE_BOUND_MS);
    const started = process.hrtime.bigint();
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(bound);
      resolve({ answer, closed: process.hrtime.bigint() - started < BigInt(CLOSE_BOUND_MS) * 1_000_000n });
    });
  });
}

const cases = [
  { name: 'a Content-Length body sent slowly', head: 'POST /v2/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"id":', drip: 'a' },
  { name: 'an endless chunked body', head: 'POST /v2/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{"id":"/aaaaaaaa\r\n', drip: '1\r\na\r\n' },
  { name: 'wrong credentials and a pending body', head: `PUT /v2/apps/x HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('admin', 'nope')}\r\nContent-Length: 5000\r\n\r\n{`, drip: ' ' },
];

for (const c of cases) {
  t.test(`401 with ${c.name}: answered and the connection closed`, async (tt) => {
    const port = await serve(tt);
    const { answer, closed } = await sendAndWait(port, c.head, c.drip);
    tt.match(answer, /^HTTP\/1\.1 401 /);
    tt.match(answer, /\r\nconnection: close\r\n/i);
    tt.ok(closed, 'the server closed the connection instead of draining the body');
  });
}

t.test('a 401 without a body keeps the connection (a client may retry with credentials on it)', async (tt) => {
  const port = await serve(tt);
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET /v2/apps HTTP/1.1\r\nHost: x\r\n\r\nGET /v2/apps HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('admin', 's3cret')}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); });
    socket.on('close', () => resolve(text));
  });
  tt.match(answer, /^HTTP\/1\.1 401 [^]*HTTP\/1\.1 200 /);
});
