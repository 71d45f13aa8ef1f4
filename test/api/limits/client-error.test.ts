import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import t from 'tap';
import { patientSignal } from '../../harness/wait';
import { apiFor } from '../apps/apps-kit';
import { isHead } from '../../../src/api/client-error';

/**
 * Requests Node's HTTP parser refuses before any route sees them (src/api/client-error.ts): the
 * status fastify gives them, with Marathon's `{message}` body (fastify's own was `{error,
 * message, statusCode}`), over a real socket, and the server goes on serving.
 */

/** Sends `raw` on a new connection to `port` and resolves with everything answered until the server closes it. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(raw));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const rows: { name: string; raw: string; status: number; message: string }[] = [
  {
    name: 'a URL over the header limit',
    raw: `GET /v2/apps/${'a'.repeat(maxHeaderSize + 1)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    status: 431, message: `The request line and headers are larger than the limit of ${maxHeaderSize} bytes`,
  },
  {
    name: 'a header over the limit',
    raw: `GET /v2/apps HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(maxHeaderSize + 1)}\r\n\r\n`,
    status: 431, message: `The request line and headers are larger than the limit of ${maxHeaderSize} bytes`,
  },
  { name: 'bytes that are not HTTP', raw: 'HELLO\x01 there\r\n\r\n', status: 400, message: 'The request is not valid HTTP/1.1' },
];

t.test('a request the parser refuses: its status with Marathon\'s {message}, and the next request is served', async (t) => {
  const fx = apiFor(t);
  await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = fx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  for (const row of rows) {
    const answer = await exchange(address.port, row.raw);
    const [head, body] = answer.split('\r\n\r\n');
    t.match(head, new RegExp(`^HTTP/1\\.1 ${row.status} `), `${row.name}: status`);
    t.match(head, /\r\nContent-Type: application\/json; charset=utf-8\r\n/, `${row.name}: JSON`);
    t.same(JSON.parse(body), { message: row.message }, `${row.name}: body`);
  }
  const ping = await fetch(`http://127.0.0.1:${address.port}/ping`, { signal: patientSignal() });
  t.equal(ping.status, 200, 'still serving');
});

t.test('an answer to HEAD has no body, whoever answers it: the parser\'s refusal, a 400, a 404, a 405', async (t) => {
  const fx = apiFor(t);
  await fx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = fx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const heads: { name: string; raw: string; status: number }[] = [
    { name: 'a Content-Length that is no number (the parser)', raw: 'HEAD /v2/apps HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', status: 400 },
    { name: 'a header over the limit (the parser)', raw: `HEAD /v2/apps HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(maxHeaderSize + 1)}\r\n\r\n`, status: 431 },
    { name: 'a URL that does not decode', raw: 'HEAD /v2/apps/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 400 },
    { name: 'a label selector that does not parse', raw: 'HEAD /v2/apps?label=%3D%3D HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 422 },
    { name: 'an unknown app', raw: 'HEAD /v2/apps/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 404 },
    { name: 'a path served by POST only', raw: 'HEAD /v2/tasks/delete HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 405 },
  ];
  for (const row of heads) {
    const answer = await exchange(address.port, row.raw);
    const end = answer.indexOf('\r\n\r\n');
    t.match(answer, new RegExp(`^HTTP/1\\.1 ${row.status} `), `${row.name}: status`);
    t.equal(answer.slice(end + 4), '', `${row.name}: no body after the headers`);
  }
  t.ok(isHead(Buffer.from('HEAD / HTTP/1.1\r\n')) && !isHead(Buffer.from('GET / HTTP/1.1\r\n')) && !isHead(undefined), 'isHead reads the method');
});
