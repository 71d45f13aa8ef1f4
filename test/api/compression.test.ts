import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../src/api/api-deps';
import { COMPRESSION_THRESHOLD_BYTES, installCompression } from '../../src/api/compression';
import { ListBodyCache, sendListBody } from '../../src/api/render/list-body-cache';
import { uiRoutes } from '../../src/api/ui/ui-routes';
import { makeApp } from '../builders/run-spec-builders';
import { makeApi, type ApiFixture } from './api-fixture';
import { RawSseClient } from './events/raw-sse-client';
import { startSseServer } from './events/sse-server-fixture';
import { waitUntil } from './events/wait-until';

/**
 * Answers are gzipped as Marathon's (`--[disable_]http_compression`, on by default; src/api/compression.ts):
 * a GET answer of at least 1 KiB to a client whose Accept-Encoding takes gzip, with
 * `Content-Encoding: gzip` and `Vary: accept-encoding`, decompressing to exactly the plain answer;
 * nothing else is compressed (small answers, HEAD, writes, the event stream, the flag off).
 */

/** Twelve apps of ten running tasks each: `/v2/apps`, `/v2/tasks` and `/v2/groups` are all well above the threshold. */
function api(t: Test, config: Partial<ApiConfig> = {}): ApiFixture {
  const fx = makeApi({ config });
  t.teardown(() => fx.app.close());
  for (let i = 0; i < 12; i++) fx.harness.deploy(makeApp({ id: `/shop/web-${i}`, instances: 10 }));
  return fx;
}

/** A GET whose answer is above the threshold, and whether it is a kept list (list-body-cache.ts) or the library's. */
const BIG_GETS: readonly { readonly url: string; readonly status: number }[] = [
  { url: '/v2/apps', status: 200 },
  { url: '/v2/apps?embed=apps.tasks', status: 200 },
  { url: '/v2/tasks', status: 200 },
  { url: '/v2/groups', status: 200 },
  { url: '/v2/info', status: 200 },
  { url: '/v2/apps/shop/web-3', status: 200 },
  // An error above the threshold: the message names the app id.
  { url: `/v2/apps/${'x'.repeat(1500)}`, status: 404 },
];

t.test('a GET answer above 1 KiB, Accept-Encoding: gzip: gzipped, decompressing to exactly the plain answer (inject)', async (t) => {
  const { app } = api(t);
  const accepts = ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', 'x-gzip', '*', 'GZIP'];
  for (const { url, status } of BIG_GETS) {
    const plain = await app.inject({ method: 'GET', url });
    t.equal(plain.statusCode, status, `${url}: plain status`);
    t.ok(plain.rawPayload.length >= COMPRESSION_THRESHOLD_BYTES, `${url}: the plain answer is above the threshold (${plain.rawPayload.length} bytes)`);
    t.equal(plain.headers['content-encoding'], undefined, `${url}: no Accept-Encoding, no compression`);
    t.equal(plain.headers.vary, undefined, `${url}: no Vary without compression`);
    for (const accept of accepts) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      t.equal(res.statusCode, status, `${url} (${accept}): status`);
      t.equal(res.headers['content-encoding'], 'gzip', `${url} (${accept}): gzip`);
      t.equal(res.headers.vary, 'accept-encoding', `${url} (${accept}): Vary`);
      t.equal(res.headers['content-type'], plain.headers['content-type'], `${url} (${accept}): the same type`);
      t.ok(gunzipSync(res.rawPayload).equals(plain.rawPayload), `${url} (${accept}): the very bytes of the plain answer`);
      t.ok(res.rawPayload.length < plain.rawPayload.length, `${url} (${accept}): smaller (${res.rawPayload.length} < ${plain.rawPayload.length})`);
    }
  }
});

t.test('not compressed: no or no usable Accept-Encoding, small answers, HEAD, writes, the flag off (inject)', async (t) => {
  const on = api(t);
  const off = api(t, { httpCompression: false });
  const rows: { name: string; app: FastifyInstance; method: 'GET' | 'HEAD' | 'POST' | 'PUT'; url: string; headers?: Record<string, string>; payload?: unknown }[] = [
    { name: 'identity', app: on.app, method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'identity' } },
    { name: 'gzip refused (q=0)', app: on.app, method: 'GET', url: '/v2/tasks', headers: { 'accept-encoding': 'gzip;q=0, br' } },
    { name: 'only br (gzip is the one encoding)', app: on.app, method: 'GET', url: '/v2/info', headers: { 'accept-encoding': 'br' } },
    { name: 'x-no-compression', app: on.app, method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'gzip', 'x-no-compression': '1' } },
    { name: '/ping: below the threshold', app: on.app, method: 'GET', url: '/ping', headers: { 'accept-encoding': 'gzip' } },
    { name: 'a 404 app: below the threshold', app: on.app, method: 'GET', url: '/v2/apps/nope', headers: { 'accept-encoding': 'gzip' } },
    { name: 'HEAD of a kept list', app: on.app, method: 'HEAD', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' } },
    { name: 'HEAD of /v2/info', app: on.app, method: 'HEAD', url: '/v2/info', headers: { 'accept-encoding': 'gzip' } },
    { name: 'POST: only GET answers', app: on.app, method: 'POST', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' }, payload: { id: '/big-cmd', cmd: `echo ${'x'.repeat(2000)}`, cpus: 0.1, mem: 16, instances: 0 } },
    { name: 'flag off: a kept list', app: off.app, method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' } },
    { name: 'flag off: the library\'s answer', app: off.app, method: 'GET', url: '/v2/info', headers: { 'accept-encoding': 'gzip' } },
    { name: 'flag off: an error above the threshold', app: off.app, method: 'GET', url: `/v2/apps/${'x'.repeat(1500)}`, headers: { 'accept-encoding': 'gzip' } },
  ];
  for (const row of rows) {
    const res = await row.app.inject({ method: row.method, url: row.url, ...(row.headers === undefined ? {} : { headers: row.headers }), ...(row.payload === undefined ? {} : { payload: row.payload as object }) });
    t.ok(res.statusCode < 500, `${row.name}: answered (${res.statusCode})`);
    t.equal(res.headers['content-encoding'], undefined, `${row.name}: no Content-Encoding`);
    t.equal(res.headers.vary, undefined, `${row.name}: no Vary`);
    if (row.method === 'HEAD') {
      t.equal(res.rawPayload.length, 0, `${row.name}: no body`);
      const get = await row.app.inject({ method: 'GET', url: row.url });
      t.equal(res.headers['content-length'], String(get.rawPayload.length), `${row.name}: the plain GET's length`);
    } else {
      t.not(res.rawPayload[0], 0x1f, `${row.name}: not gzip bytes`);
      if (row.url !== '/ping') t.doesNotThrow(() => JSON.parse(res.body) as unknown, `${row.name}: a plain JSON body`);
    }
  }
});

t.test('a gzipped request body is still refused with 415, not inflated', async (t) => {
  const { app } = api(t);
  const res = await app.inject({ method: 'POST', url: '/v2/apps', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'accept-encoding': 'gzip' }, payload: Buffer.from([0x1f, 0x8b, 0x08, 0]) });
  t.equal(res.statusCode, 415);
});

/** GET over a real socket with Node's `http` (no decompression of its own): status, headers, raw body. */
function rawGet(baseUrl: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function listening(t: Test, config: Partial<ApiConfig> = {}): Promise<{ fx: ApiFixture; baseUrl: string }> {
  const fx = api(t, config);
  await fx.app.listen({ host: '127.0.0.1', port: 0 });
  return { fx, baseUrl: `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}` };
}

t.test('over HTTP: fetch decompresses to the plain answer; http.get sees gzip on the wire', async (t) => {
  const { baseUrl } = await listening(t);
  for (const { url, status } of BIG_GETS) {
    const plain = await rawGet(baseUrl, url);
    t.equal(plain.status, status, `${url}: plain`);
    t.equal(plain.headers['content-encoding'], undefined, `${url}: plain, no Content-Encoding`);
    const wire = await rawGet(baseUrl, url, { 'accept-encoding': 'gzip' });
    t.equal(wire.headers['content-encoding'], 'gzip', `${url}: gzip on the wire`);
    t.equal(wire.headers.vary, 'accept-encoding', `${url}: Vary`);
    t.ok(gunzipSync(wire.body).equals(plain.body), `${url}: gunzipped, the plain bytes`);
    // fetch (undici) asks for gzip itself and decompresses.
    const fetched = await fetch(`${baseUrl}${url}`);
    t.equal(fetched.status, status, `${url}: fetch status`);
    t.equal(fetched.headers.get('content-encoding'), 'gzip', `${url}: fetch got gzip`);
    t.ok(Buffer.from(await fetched.arrayBuffer()).equals(plain.body), `${url}: fetch's text is the plain answer`);
  }
});

t.test('over HTTP with --disable_http_compression: never compressed', async (t) => {
  const { baseUrl } = await listening(t, { httpCompression: false });
  for (const { url } of BIG_GETS) {
    const res = await rawGet(baseUrl, url, { 'accept-encoding': 'gzip' });
    t.equal(res.headers['content-encoding'], undefined, `${url}: no Content-Encoding`);
    t.doesNotThrow(() => JSON.parse(res.body.toString('utf8')) as unknown, `${url}: plain JSON`);
  }
});

t.test('the event stream is never compressed: a subscriber asking for gzip gets each event at once, as text', async (t) => {
  const server = await startSseServer();
  t.teardown(() => server.app.close());
  const client = await RawSseClient.open(server.baseUrl, '/v2/events', { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, deflate, br' });
  t.teardown(() => client.close());
  t.equal(client.statusCode, 200);
  t.equal(client.headers['content-encoding'], undefined, 'no Content-Encoding');
  t.match(client.headers['content-type'], /^text\/event-stream/);
  await waitUntil(() => client.parsed().events.length > 0, 'the attached event');
  // Each event alone, well above the threshold, and nothing after it: it must arrive before the next is sent.
  for (let i = 0; i < 3; i++) {
    const uri = `/v2/apps/${String(i).repeat(1500)}`;
    server.deps.events.publish({ eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', clientIp: '127.0.0.1', uri });
    await waitUntil(() => client.parsed().events.some((e) => (e.data as { uri?: string }).uri === uri), `event ${i} on its own`);
  }
  t.equal(client.parsed().events.filter((e) => e.event === 'api_post_event').length, 3, 'three events, as text');
});

t.test('a kept list: its gzip is made once for an unchanged answer, again after a change, and counted in the bound', async (t) => {
  const fx = api(t);
  const first = await fx.app.inject({ method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' } });
  const again = await fx.app.inject({ method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' } });
  t.ok(first.rawPayload.equals(again.rawPayload), 'the same gzip for the same answer');
  fx.harness.deploy(makeApp({ id: '/shop/web-new', instances: 1 }));
  const changed = await fx.app.inject({ method: 'GET', url: '/v2/apps', headers: { 'accept-encoding': 'gzip' } });
  const plain = await fx.app.inject({ method: 'GET', url: '/v2/apps' });
  t.ok(gunzipSync(changed.rawPayload).equals(plain.rawPayload), 'after a change: the new answer');
  t.match(plain.body, /web-new/);

  // The cache alone: the gzip's bytes are counted with the answer's, and dropped with it.
  const cache = new ListBodyCache(4, 1024 * 1024, 64);
  const pieces = Array.from({ length: 50 }, (_, i) => ({ key: `/a${i}`, parts: [`{"id":"/a${i}","cmd":"sleep 3600"}`] }));
  const body = cache.body('q', '{"apps":[', pieces, ']}');
  const before = cache.size().bytes;
  const [gz1, gz2] = await Promise.all([cache.gzipOf(body), cache.gzipOf(body)]);
  t.equal(gz1, gz2, 'reads meanwhile share one gzip');
  t.equal(cache.size().bytes, before + gz1.length, 'the gzip counted in the bound');
  t.equal(await cache.gzipOf(body), gz1, 'kept');
  t.equal(gunzipSync(gz1).toString('utf8'), `{"apps":[${pieces.map((p) => p.parts[0]).join(',')}]}`, 'the answer');
  cache.body('q', '{"apps":[', pieces.slice(1), ']}');
  t.ok(cache.size().bytes < before, 'replaced: the old answer and its gzip no longer counted');
  // 40 pieces in a bound 20 bytes above their segments: no room for their gzip.
  const forty = pieces.slice(0, 40);
  const segmentBytes = forty.reduce((n, p) => n + p.parts[0].length + 1, 0);
  const tight = new ListBodyCache(4, segmentBytes + 20, 64);
  const big = tight.body('q', '{"apps":[', forty, ']}');
  const kept = tight.size().bytes;
  t.equal(kept, segmentBytes, 'the answer is kept');
  const gz = await tight.gzipOf(big);
  t.equal(tight.size().bytes, kept, 'a gzip that does not fit the bound is not kept');
  t.ok(gunzipSync(gz).length > 0, 'but answered');
  t.not(await tight.gzipOf(big), gz, 'and made again for the next read');
});

t.test('a big kept list whose gzip is not made yet goes as it is, with Vary; the reads after it get the gzip', async (t) => {
  // A list of 100,000 tasks compressed again after each change cost a read ~600 ms: a read never
  // waits for the gzip of an answer above the cache's gzipWaitBytes (list-body-cache.ts).
  const app = Fastify();
  t.teardown(() => app.close());
  installCompression(app);
  const cache = new ListBodyCache(4, 1024 * 1024, 64, 2048);
  const pieces = Array.from({ length: 200 }, (_, i) => ({ key: `/a${i}`, parts: [`{"id":"/a${i}","cmd":"sleep 3600"}`] }));
  app.get('/list', (_req, reply) => sendListBody(reply, cache.body('q', '{"apps":[', pieces, ']}'), cache));
  // Below the wait bound: the first compressed read waits for its gzip.
  const small = new ListBodyCache(4, 1024 * 1024, 64, 1024 * 1024);
  app.get('/small', (_req, reply) => sendListBody(reply, small.body('q', '{"apps":[', pieces, ']}'), small));
  const plain = await app.inject({ method: 'GET', url: '/list' });
  t.ok(plain.rawPayload.length > 2048, `the answer (${plain.rawPayload.length} bytes) is above the wait bound`);
  const first = await app.inject({ method: 'GET', url: '/list', headers: { 'accept-encoding': 'gzip' } });
  t.equal(first.headers['content-encoding'], undefined, 'the first compressed read: sent as it is');
  t.equal(first.headers.vary, 'accept-encoding', 'saying that it varies');
  t.ok(first.rawPayload.equals(plain.rawPayload), 'the plain answer, exactly');
  const body = cache.body('q', '{"apps":[', pieces, ']}');
  await waitUntil(() => cache.readyGzip(body) !== undefined, 'its gzip made meanwhile');
  const next = await app.inject({ method: 'GET', url: '/list', headers: { 'accept-encoding': 'gzip' } });
  t.equal(next.headers['content-encoding'], 'gzip', 'the next read: gzipped');
  t.ok(gunzipSync(next.rawPayload).equals(plain.rawPayload), 'decompressing to the plain answer');

  const waited = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'gzip' } });
  t.equal(waited.headers['content-encoding'], 'gzip', 'an answer within the wait bound: gzipped at its first read');
});

t.test('a big answer the library compresses goes to zlib as a stream (off the event loop: its syncThreshold), decompressing to the plain answer', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  installCompression(app);
  const text = JSON.stringify({ items: Array.from({ length: 4000 }, (_, i) => ({ id: `/item-${i}`, cmd: 'sleep 3600' })) });
  app.get('/big', (_req, reply) => reply.type('application/json').send(text));
  app.get('/medium', (_req, reply) => reply.type('application/json').send(text.slice(0, 3000)));
  t.ok(Buffer.byteLength(text) > 64 * 1024, 'the answer is above the library\'s syncThreshold whatever the cores');
  const big = await app.inject({ method: 'GET', url: '/big', headers: { 'accept-encoding': 'gzip' } });
  t.equal(big.headers['content-encoding'], 'gzip');
  t.equal(big.headers['content-length'], undefined, 'streamed: no length known before zlib is done');
  t.equal(gunzipSync(big.rawPayload).toString('utf8'), text, 'the plain answer');
  const medium = await app.inject({ method: 'GET', url: '/medium', headers: { 'accept-encoding': 'gzip' } });
  t.equal(medium.headers['content-encoding'], 'gzip', 'one under 4 KiB (the library\'s smallest syncThreshold): gzipped too');
  t.ok(medium.headers['content-length'] !== undefined, 'in one piece, its length known');
  const plain = await app.inject({ method: 'GET', url: '/big' });
  t.equal(plain.headers['content-encoding'], undefined, 'without Accept-Encoding: as it is');
  t.equal(plain.body, text);
});

t.test('the web UI\'s files (@fastify/static, a route of HEAD and GET) are gzipped as every GET answer', async (t) => {
  // Found trying it: app.js (66 KiB) went uncompressed, its route's methods being an array.
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ui-gzip-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'assets'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  writeFileSync(join(dir, 'assets', 'app.js'), script);
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>pacer</title>${'<!-- -->'.repeat(300)}`);
  const app = Fastify();
  t.teardown(() => app.close());
  installCompression(app);
  uiRoutes(app, dir);
  for (const url of ['/ui/assets/app.js', '/ui/']) {
    const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    t.equal(res.statusCode, 200, url);
    t.equal(res.headers['content-encoding'], 'gzip', `${url}: gzipped`);
    const plain = await app.inject({ method: 'GET', url });
    t.ok(gunzipSync(res.rawPayload).equals(plain.rawPayload), `${url}: decompressing to the file`);
  }
  t.equal((await app.inject({ method: 'GET', url: '/ui/assets/app.js' })).body, script, 'without Accept-Encoding: the file as it is');
  const head = await app.inject({ method: 'HEAD', url: '/ui/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
  t.equal(head.headers['content-encoding'], 'gzip', 'a HEAD of a UI file carries the Content-Encoding its GET would (README)');
  t.equal(head.rawPayload.length, 0, 'and no body');
});
