import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../src/api/api-deps';
import { buildServer } from '../../src/api/server';
import { CoreFailure } from '../../src/runtime/core-failure';
import { AssertionError } from '../../src/scheduler/kernel/assert';
import type { Scheduler } from '../../src/scheduler/scheduler';
import { makeApi } from './api-fixture';
import { basic, openAuth } from './auth/auth-kit';
import { captureLog, type CapturedLog } from '../harness/log-capture';

/**
 * The API's log (src/api/request-log.ts, server.ts): one record per request with its fields,
 * never a credential; and a failure of the core while serving is never answered as a 500.
 */

/** The API over the fixture's core, logging into memory; core failures recorded. */
function loggedApi(t: Test, over: Partial<ApiDeps> = {}, withAuth = false): { app: FastifyInstance; captured: CapturedLog; failures: CoreFailure[] } {
  const fixture = makeApi();
  t.teardown(() => fixture.app.close());
  const captured = captureLog('json', 'info');
  const failures: CoreFailure[] = [];
  const app = buildServer({
    deps: { ...fixture.deps, ...over }, stream: { close: () => undefined }, log: captured.log, onCoreFailure: (f) => void failures.push(f),
    ...(withAuth ? { auth: openAuth({ httpCredentials: 'ops:s3cret-pw' }) } : {}),
  });
  t.teardown(() => app.close());
  return { app, captured, failures };
}

t.test('one record per request: method, path, status, ms, client, and a readable message', async (t) => {
  const { app, captured } = loggedApi(t);
  await app.inject({ method: 'GET', url: '/v2/apps?embed=apps.tasks' });
  await app.inject({ method: 'POST', url: '/v2/apps', payload: { id: '/x', cmd: 'sleep 1', cpus: 'lots' } });
  const lines = captured.records().filter((r) => r.component === 'api' && 'method' in r);
  t.equal(lines.length, 2, 'one each, not fastify\'s two');
  t.match(lines[0], { level: 30, method: 'GET', path: '/v2/apps?embed=apps.tasks', status: 200, ms: Number, client: '127.0.0.1', msg: /^GET \/v2\/apps\?embed=apps\.tasks 200 [\d.]+ ms 127\.0\.0\.1$/ });
  t.match(lines[1], { level: 30, method: 'POST', status: 422 }, 'a refused request is logged with its status');
});

t.test('no credential reaches the log: not in request records, not in what fastify logs about a request', async (t) => {
  const { app, captured } = loggedApi(t, {}, true);
  const secret = basic('ops', 's3cret-pw');
  t.equal((await app.inject({ method: 'GET', url: '/v2/apps', headers: { authorization: secret } })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: '/v2/apps', headers: { authorization: basic('ops', 'wrong-pw') } })).statusCode, 401);
  t.equal((await app.inject({ method: 'GET', url: '/v2/apps', headers: { authorization: 'Bearer tok-123', cookie: 'session=abc' } })).statusCode, 401);
  // fastify serializes a request in its own records without headers; pacer's log redacts them anyway.
  app.log.warn({ req: { method: 'GET', headers: { authorization: secret } } }, 'fastify with a request');
  captured.log.warn({ req: { method: 'GET', headers: { authorization: secret, cookie: 'session=abc' } } }, 'with headers');
  const text = captured.lines().join('\n');
  t.match(text, /"status":401/);
  for (const leaked of [secret.slice('Basic '.length), 's3cret-pw', 'wrong-pw', 'tok-123', 'session=abc']) t.notMatch(text, leaked, `no ${leaked}`);
  t.match(captured.records().find((r) => r.msg === 'with headers'), { req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } } });
});

t.test('a query that trips an assertion of the core: the core failure handler, with the request as its input; never a 500', async (t) => {
  const fixture = makeApi();
  t.teardown(() => fixture.app.close());
  const scheduler = new Proxy(fixture.deps.scheduler, {
    get: (target, key, receiver) => (key === 'deployments' ? () => { throw new AssertionError('a step beyond the plan'); } : Reflect.get(target, key, receiver) as unknown),
  }) as Scheduler;
  const { app, failures } = loggedApi(t, { scheduler });
  const res = await app.inject({ method: 'GET', url: '/v2/deployments' });
  t.equal(failures.length, 1, 'handed to the handler (production: the process stops)');
  t.match(failures[0].input, { request: { method: 'GET', url: '/v2/deployments' } });
  t.ok(failures[0].isAssertion);
  t.equal(res.statusCode, 503, 'only a handler that returns (a test\'s) lets an answer out, and never a 500');
  t.match(res.json(), { message: /^pacer stopped: assertion failed: a step beyond the plan/ });
});

t.test('a command the loop reported as a core failure is not reported twice; an ordinary error stays a 500, a bad request a 4xx', async (t) => {
  const failure = new CoreFailure({ type: 'scale' }, 0, new AssertionError('x'));
  let submitted = 0;
  const { app, failures } = loggedApi(t, { submit: () => { submitted++; throw failure; } });
  const res = await app.inject({ method: 'POST', url: '/v2/apps', payload: { id: '/x', cmd: 'sleep 1' } });
  t.equal(submitted, 1);
  t.equal(res.statusCode, 503);
  t.equal(failures.length, 0, 'the loop reported it already');
  t.equal((await app.inject({ method: 'POST', url: '/v2/apps', payload: { id: '/x', cpus: 'lots' } })).statusCode, 422, 'validation: 4xx, before the core');
  t.equal(failures.length, 0);
});
