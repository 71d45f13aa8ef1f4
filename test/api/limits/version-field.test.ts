import t from 'tap';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, appBody, call, type Json } from '../apps/apps-kit';
import { podBody } from '../pods/pod-api-builders';

type Method = 'POST' | 'PUT' | 'PATCH';

interface Row {
  readonly name: string;
  readonly method: Method;
  readonly url: string;
  readonly body: unknown;
  /** Marathon's path of `version` in the answer (422 "Invalid JSON", `error.expected.date.isoformat`). */
  readonly path: string;
}

const app = (over: Json): Json => appBody({ id: '/a', ...over });
const NOT_DATES = ['bogus', '', '2026-13-45T00:00:00.000Z'];

/**
 * `version` is the RAML's `datetime` for apps and pods, as for groups: a string that is no date was
 * accepted as any string (a create ignored it; `PUT /v2/apps/existing {"version":"bogus"}`, a
 * rollback, answered 404 "App '/existing' does not exist" for an app that exists).
 */
const rows: Row[] = NOT_DATES.flatMap((v): Row[] => [
  { name: `app create, version '${v}'`, method: 'POST', url: '/v2/apps', body: app({ version: v }), path: '/version' },
  { name: `app rollback by PUT, version '${v}'`, method: 'PUT', url: '/v2/apps/existing', body: { version: v }, path: '/version' },
  { name: `app rollback by PATCH, version '${v}'`, method: 'PATCH', url: '/v2/apps/existing?force=true', body: { id: '/existing', version: v }, path: '/version' },
  { name: `app replacement, version '${v}'`, method: 'PUT', url: '/v2/apps/existing?partialUpdate=false', body: app({ version: v }), path: '/version' },
  { name: `bulk rollback, version '${v}'`, method: 'PUT', url: '/v2/apps', body: [{ id: '/existing', version: v }], path: '/(0)/version' },
  { name: `a group's app, version '${v}'`, method: 'POST', url: '/v2/groups', body: { id: '/g', apps: [app({ id: 'a', version: v })] }, path: '/apps(0)/version' },
  { name: `pod create, version '${v}'`, method: 'POST', url: '/v2/pods', body: podBody({ version: v }), path: '/version' },
]);

t.test('a version that is no date: 422 "Invalid JSON" error.expected.date.isoformat, nothing changed', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    t.equal((await call(fx, 'POST', '/v2/apps', appBody({ id: '/existing' }))).status, 201);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, row.method, row.url, row.body);
    t.equal(res.status, 422, `${row.name}: status (${res.text.slice(0, 200)})`);
    t.same(res.json, { message: 'Invalid JSON', details: [{ path: row.path, errors: ['error.expected.date.isoformat'] }] }, `${row.name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('a version that is a date: a create ignores it, a rollback to an unknown one is still 404', async (t) => {
  const fx = apiFor(t);
  const made = await call(fx, 'POST', '/v2/apps', app({ version: '2020-01-01T00:00:00.000Z' }));
  t.equal(made.status, 201, made.text.slice(0, 200));
  t.not(made.json.version, '2020-01-01T00:00:00.000Z', 'the core stamps the version');
  t.equal((await call(fx, 'POST', '/v2/pods', podBody({ version: '2020-01-01T00:00:00Z' }))).status, 201);
  t.equal((await call(fx, 'POST', '/v2/apps', app({ id: '/b', version: null }))).status, 201, 'null is no version');
  const unknown = await call(fx, 'PUT', '/v2/apps/a?force=true', { version: '2020-01-01T00:00:00.000Z' });
  t.equal(unknown.status, 404);
  t.same(unknown.json, { message: "App '/a' does not exist" }, 'Marathon\'s AppNotFoundException(appId) (AppHelpers.rollback)');
});
