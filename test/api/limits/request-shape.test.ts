import t from 'tap';
import { buildServer } from '../../../src/api/server';
import type { MetricsJson } from '../../../src/api/metrics/metrics-registry';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { captureLog } from '../../harness/log-capture';
import { makeApi } from '../api-fixture';
import { apiFor, appBody, type Json } from '../apps/apps-kit';

/**
 * What a new user's first mistakes get (the clean-clone trial of 2026-12-01): a body that is not
 * sent as JSON, and a URL that does not decode. Each is a 4xx in Marathon's shape (`{message}`,
 * application/json, with the headers every answer carries), naming what was wrong, and changes
 * nothing.
 */

interface MediaRow {
  readonly name: string;
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly contentType: string;
  readonly payload: string;
  readonly status: number;
  readonly message: string | undefined;
}

const app = JSON.stringify(appBody({ id: '/a' }));

const mediaRows: MediaRow[] = [
  // fastify's own text/plain parser handed the string on: 422 "Invalid JSON" error.expected.jsobject for valid JSON.
  { name: 'text/plain', method: 'POST', url: '/v2/apps', contentType: 'text/plain', payload: app, status: 415, message: 'Unsupported Media Type: text/plain (request bodies must be sent as Content-Type: application/json)' },
  { name: 'text/plain; charset=utf-8', method: 'PUT', url: '/v2/apps/a', contentType: 'text/plain; charset=utf-8', payload: '{"instances":2}', status: 415, message: 'Unsupported Media Type: text/plain; charset=utf-8 (request bodies must be sent as Content-Type: application/json)' },
  // curl -d without -H.
  { name: 'form (curl -d)', method: 'POST', url: '/v2/apps', contentType: 'application/x-www-form-urlencoded', payload: app, status: 415, message: 'Unsupported Media Type: application/x-www-form-urlencoded (request bodies must be sent as Content-Type: application/json)' },
  { name: 'pods, text/plain', method: 'POST', url: '/v2/pods', contentType: 'text/plain', payload: '{"id":"/p"}', status: 415, message: 'Unsupported Media Type: text/plain (request bodies must be sent as Content-Type: application/json)' },
  { name: 'tasks/delete, text/plain', method: 'POST', url: '/v2/tasks/delete', contentType: 'text/plain', payload: '{"ids":[]}', status: 415, message: 'Unsupported Media Type: text/plain (request bodies must be sent as Content-Type: application/json)' },
  { name: 'no Content-Type', method: 'POST', url: '/v2/apps', contentType: '', payload: app, status: 415, message: 'Unsupported Media Type: no Content-Type (request bodies must be sent as Content-Type: application/json)' },
  { name: 'application/json is read', method: 'POST', url: '/v2/apps', contentType: 'application/json', payload: app, status: 201, message: undefined },
];

t.test('a body in another media type than JSON: 415 naming it, nothing changed', async (t) => {
  for (const row of mediaRows) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const headers = row.contentType === '' ? {} : { 'content-type': row.contentType };
    const res = await fx.app.inject({ method: row.method, url: row.url, payload: row.payload, headers });
    t.equal(res.statusCode, row.status, `${row.name}: status (${res.body.slice(0, 200)})`);
    if (row.message === undefined) continue;
    t.same(JSON.parse(res.body), { message: row.message }, `${row.name}: body`);
    t.match(res.headers['content-type'], /^application\/json/, `${row.name}: JSON`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('a bodyless request is served whatever its Content-Type', async (t) => {
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
    const fx = apiFor(t);
    const created = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app, headers: { 'content-type': 'application/json' } });
    t.equal(created.statusCode, 201);
    const restarted = await fx.app.inject({ method: 'POST', url: '/v2/apps/a/restart?force=true', headers: { 'content-type': contentType } });
    t.equal(restarted.statusCode, 200, `${contentType}: restart (${restarted.body.slice(0, 200)})`);
    const deleted = await fx.app.inject({ method: 'DELETE', url: '/v2/apps/a?force=true', headers: { 'content-type': contentType, 'content-length': '0' } });
    t.equal(deleted.statusCode, 200, `${contentType}: delete (${deleted.body.slice(0, 200)})`);
  }
});

interface UrlRow {
  readonly name: string;
  readonly url: string;
  readonly status: number;
  readonly message: string;
}

const urlRows: UrlRow[] = [
  // fastify answered these itself: {"error":"Bad Request","code":"FST_ERR_BAD_URL",…,"statusCode":400}, without Marathon's headers.
  { name: 'a bad percent-escape in an app id', url: '/v2/apps/%ZZ', status: 400, message: "Malformed URL '/v2/apps/%ZZ': a percent-escape is incomplete or does not decode to UTF-8" },
  { name: 'a cut percent-escape in a pod id', url: '/v2/pods/p%E', status: 400, message: "Malformed URL '/v2/pods/p%E': a percent-escape is incomplete or does not decode to UTF-8" },
  { name: 'bytes that are not UTF-8', url: '/v2/groups/%C3%28', status: 400, message: "Malformed URL '/v2/groups/%C3%28': a percent-escape is incomplete or does not decode to UTF-8" },
];

t.test('a URL that does not decode: 400 in Marathon\'s shape with the headers of every answer', async (t) => {
  for (const row of urlRows) {
    const fx = apiFor(t);
    const res = await fx.app.inject({ method: 'GET', url: row.url });
    t.equal(res.statusCode, row.status, `${row.name}: status (${res.body.slice(0, 200)})`);
    t.same(JSON.parse(res.body) as Json, { message: row.message }, `${row.name}: body`);
    t.match(res.headers['content-type'], /^application\/json/, `${row.name}: JSON`);
    t.equal(res.headers['cache-control'], 'no-cache, no-store, must-revalidate', `${row.name}: Marathon's headers`);
  }
});

t.test('a URL that does not decode is logged and counted like any answer, and leaves no request in flight', async (t) => {
  const fixture = makeApi();
  t.teardown(() => fixture.app.close());
  const captured = captureLog('json', 'info');
  const app = buildServer({ deps: fixture.deps, stream: { close: () => undefined }, log: captured.log });
  t.teardown(() => app.close());
  for (const row of urlRows) t.equal((await app.inject({ method: 'GET', url: row.url })).statusCode, row.status, row.name);
  const records = captured.records().filter((r) => r.component === 'api' && 'method' in r);
  t.same(records.map((r) => [r.path, r.status]), urlRows.map((row) => [row.url, row.status]), 'one request record each');
  const metrics = JSON.parse((await app.inject({ method: 'GET', url: '/metrics' })).body) as MetricsJson;
  t.equal(metrics.gauges['marathon.http.requests.active.gauge']?.value, 1, 'in flight: the /metrics request alone');
  t.equal(metrics.counters['marathon.http.responses.4xx.counter']?.count, urlRows.length, 'counted as 4xx');
});
