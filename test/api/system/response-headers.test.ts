import t, { type Test } from 'tap';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { makeApi, TEST_API_CONFIG } from '../api-fixture';
import { basic, openAuth } from '../auth/auth-kit';
import type { MetricsJson } from '../../../src/api/metrics/metrics-registry';

/**
 * Fact 12's headers on every answer, successes and errors alike (src/api/server.ts
 * marathonHeaders, set by request-lifecycle.ts as each request arrives, before any hook), through
 * inject and over a real socket; and the HTTP metrics' in-flight count back where it was after
 * answers of every kind, refused ones included (counted from arrival, request-lifecycle.ts).
 */

const FACT_12 = {
  'cache-control': 'no-cache, no-store, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-marathon-leader': `http://${TEST_API_CONFIG.httpAddress}`,
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
};

interface Case {
  readonly name: string;
  readonly method: 'GET' | 'HEAD' | 'POST';
  readonly url: string;
  readonly status: number;
  readonly body?: string;
  readonly contentType?: string;
  /** Sent with the operator's credentials (the server asks for them). */
  readonly authorized?: boolean;
}

const JSON_TYPE = 'application/json';
const CASES: readonly Case[] = [
  { name: 'ping (open path)', method: 'GET', url: '/ping', status: 200 },
  { name: 'HEAD ping', method: 'HEAD', url: '/ping', status: 200 },
  { name: 'a list', method: 'GET', url: '/v2/apps', status: 200, authorized: true },
  { name: 'a list with repeated slashes', method: 'GET', url: '//v2//tasks', status: 200, authorized: true },
  { name: 'no credentials: 401', method: 'GET', url: '/v2/apps', status: 401 },
  { name: 'unknown route: 404', method: 'GET', url: '/v2/nope', status: 404, authorized: true },
  { name: 'malformed JSON: 400', method: 'POST', url: '/v2/apps', status: 400, body: '{"id":', contentType: JSON_TYPE, authorized: true },
  { name: 'body over the limit: 413', method: 'POST', url: '/v2/apps', status: 413, body: JSON.stringify({ id: '/x', cmd: 'x'.repeat(4096) }), contentType: JSON_TYPE, authorized: true },
  { name: 'invalid app: 422', method: 'POST', url: '/v2/apps', status: 422, body: '{"id":"/x","cpus":"lots"}', contentType: JSON_TYPE, authorized: true },
  { name: 'unsupported media type: 415', method: 'POST', url: '/v2/apps', status: 415, body: 'id=x', contentType: 'application/x-www-form-urlencoded', authorized: true },
];

const AUTHORIZATION = basic('ops', 's3cret-pw');

function api(t: Test): FastifyInstance {
  const fx = makeApi({ auth: openAuth({ httpCredentials: 'ops:s3cret-pw' }), config: { bodyLimitBytes: 1024 } });
  t.teardown(() => fx.app.close());
  return fx.app;
}

function headersOf(c: Case): Record<string, string> {
  return {
    ...(c.authorized === true ? { authorization: AUTHORIZATION } : {}),
    ...(c.contentType === undefined ? {} : { 'content-type': c.contentType }),
  };
}

t.test('fact 12 headers on every answer, through inject', async (t) => {
  const app = api(t);
  for (const c of CASES) {
    const res = await app.inject({ method: c.method, url: c.url, headers: headersOf(c), ...(c.body === undefined ? {} : { payload: c.body }) });
    t.equal(res.statusCode, c.status, `${c.name}: status`);
    t.match(res.headers, FACT_12, c.name);
  }
});

t.test('fact 12 headers on every answer, over HTTP', async (t) => {
  const app = api(t);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  for (const c of CASES) {
    const res = await fetch(`${base}${c.url}`, { method: c.method, headers: headersOf(c), ...(c.body === undefined ? {} : { body: c.body }) });
    await res.arrayBuffer();
    t.equal(res.status, c.status, `${c.name}: status`);
    for (const [name, value] of Object.entries(FACT_12)) t.equal(res.headers.get(name), value, `${c.name}: ${name}`);
  }
});

t.test('the in-flight gauge is back to the reading request alone after answers of every kind', async (t) => {
  const app = api(t);
  for (const c of CASES) await app.inject({ method: c.method, url: c.url, headers: headersOf(c), ...(c.body === undefined ? {} : { payload: c.body }) });
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: AUTHORIZATION } });
  const m = JSON.parse(res.body) as MetricsJson;
  t.equal(m.gauges['marathon.http.requests.active.gauge']?.value, 1, 'only the /metrics request itself');
  const answered = ['2xx', '4xx'].reduce((n, cls) => n + m.counters[`marathon.http.responses.${cls}.counter`].count, 0);
  t.equal(answered, CASES.length, 'every answer counted once');
});
