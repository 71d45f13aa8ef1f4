import t from 'tap';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, appBody } from '../apps/apps-kit';

/**
 * A request body with a `Content-Encoding` other than `identity` is refused with 415 naming the
 * encoding, before it is read (it was parsed as if plain: a gzipped app answered 400 "not valid
 * UTF-8"); a zip bomb is never inflated. `identity` and bodyless requests are served.
 */

const app = JSON.stringify(appBody({ id: '/a' }));
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces in ~64 KiB

interface Row {
  readonly name: string;
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly encoding: string;
  readonly payload: Buffer | string;
  readonly status: number;
  readonly message?: string;
}

const message = (encoding: string): string =>
  `Unsupported Content-Encoding: ${encoding} (request bodies must be sent uncompressed, without Content-Encoding)`;

const rows: Row[] = [
  { name: 'gzip', method: 'POST', url: '/v2/apps', encoding: 'gzip', payload: gzipSync(app), status: 415, message: message('gzip') },
  { name: 'deflate', method: 'POST', url: '/v2/apps', encoding: 'deflate', payload: deflateSync(app), status: 415, message: message('deflate') },
  { name: 'br', method: 'PUT', url: '/v2/apps/a', encoding: 'br', payload: brotliCompressSync('{"instances":2}'), status: 415, message: message('br') },
  { name: 'an unknown coding', method: 'POST', url: '/v2/pods', encoding: 'zstd', payload: '{"id":"/p"}', status: 415, message: message('zstd') },
  { name: 'a list ending in gzip', method: 'POST', url: '/v2/tasks/delete', encoding: 'identity, gzip', payload: gzipSync('{"ids":[]}'), status: 415, message: message('identity, gzip') },
  { name: 'a zip bomb', method: 'POST', url: '/v2/groups', encoding: 'gzip', payload: bomb, status: 415, message: message('gzip') },
  { name: 'identity is read', method: 'POST', url: '/v2/apps', encoding: 'identity', payload: app, status: 201 },
  { name: 'IDENTITY in any case is read', method: 'POST', url: '/v2/apps', encoding: 'IDENTITY', payload: app, status: 201 },
];

t.test('a body with a Content-Encoding other than identity: 415 naming it, nothing changed', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({
      method: row.method, url: row.url, payload: row.payload,
      headers: { 'content-type': 'application/json', 'content-encoding': row.encoding },
    });
    t.equal(res.statusCode, row.status, `${row.name}: status (${res.body.slice(0, 200)})`);
    if (row.message === undefined) continue;
    t.same(JSON.parse(res.body), { message: row.message }, `${row.name}: body`);
    t.match(res.headers['content-type'], /^application\/json/, `${row.name}: JSON`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('a bodyless request is served whatever its Content-Encoding', async (t) => {
  const fx = apiFor(t);
  const created = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app, headers: { 'content-type': 'application/json' } });
  t.equal(created.statusCode, 201);
  const restarted = await fx.app.inject({ method: 'POST', url: '/v2/apps/a/restart?force=true', headers: { 'content-encoding': 'gzip', 'content-length': '0' } });
  t.equal(restarted.statusCode, 200, `restart (${restarted.body.slice(0, 200)})`);
  const read = await fx.app.inject({ method: 'GET', url: '/v2/apps/a', headers: { 'content-encoding': 'gzip' } });
  t.equal(read.statusCode, 200, 'read');
});
