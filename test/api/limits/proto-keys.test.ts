import t from 'tap';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, type Json } from '../apps/apps-kit';

/**
 * A JSON object key `__proto__` (JSON.parse makes it an own property) was accepted and then lost:
 * every object copy after the parser (`out[key] = value`) set the copy's prototype instead of a
 * key. `POST /v2/apps` with `"labels":{"__proto__":"x"}` answered 201 and stored no such label,
 * `"env":{"__proto__":{"secret":"s"}}` answered 201 and stored no env at all, and
 * `"secrets":{"__proto__":{"source":"s"}}` answered 422 at `/secrets/source`, a field the client
 * never sent. Such a key is now refused before anything reads the body: 400 "Invalid JSON" naming
 * where it is, nothing stored (docs/limits.md, Requests).
 */
const app = (extra: Json): string => JSON.stringify({ id: '/b', cmd: 'sleep 100', cpus: 0.1, mem: 32, instances: 0, ...extra });
const pod = (extra: Json): string => JSON.stringify({
  id: '/p', containers: [{ name: 'c', exec: { command: { shell: 'sleep 100' } }, resources: { cpus: 0.1, mem: 32 } }], scaling: { kind: 'fixed', instances: 0 }, ...extra,
});
/** The key written into a JSON text: JSON.stringify of a literal would treat it as the prototype. */
const withProto = (text: string, where: string, value: string): string => text.replace(`"${where}":{`, `"${where}":{"__proto__":${value},`);
const refused = (at: string): Json => ({ message: 'Invalid JSON', details: `The object key "__proto__" is not allowed (at ${at})` });

interface Row {
  readonly name: string;
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly url: string;
  readonly payload: string;
  readonly at: string;
}

const rows: Row[] = [
  { name: 'an app label', method: 'POST', url: '/v2/apps', payload: withProto(app({ labels: { b: 'c' } }), 'labels', '"x"'), at: '/labels' },
  { name: 'an app env holding a secret', method: 'POST', url: '/v2/apps', payload: withProto(app({ env: { A: 'b' }, secrets: { s: { source: 's' } } }), 'env', '{"secret":"s"}'), at: '/env' },
  { name: 'an app secret', method: 'POST', url: '/v2/apps', payload: withProto(app({ secrets: { s: { source: 's' } } }), 'secrets', '{"source":"s"}'), at: '/secrets' },
  { name: 'the app itself', method: 'POST', url: '/v2/apps', payload: app({}).replace('{', '{"__proto__":{"instances":5},'), at: '/' },
  { name: 'written with an escape', method: 'POST', url: '/v2/apps', payload: app({ labels: { b: 'c' } }).replace('"labels":{', '"labels":{"\\u005f_proto__":"x",'), at: '/labels' },
  { name: 'a partial update', method: 'PATCH', url: '/v2/apps/a', payload: withProto(JSON.stringify({ labels: { b: 'c' } }), 'labels', '"x"'), at: '/labels' },
  { name: 'an app of a bulk update', method: 'PUT', url: '/v2/apps', payload: `[${withProto(app({ labels: { b: 'c' } }), 'labels', '"x"')}]`, at: '/0/labels' },
  { name: 'a pod label', method: 'POST', url: '/v2/pods', payload: withProto(pod({ labels: { b: 'c' } }), 'labels', '"x"'), at: '/labels' },
  { name: 'a pod container label', method: 'POST', url: '/v2/pods', payload: withProto(pod({}), 'exec', '{}'), at: '/containers/0/exec' },
  { name: 'an app of a group', method: 'POST', url: '/v2/groups', payload: `{"id":"/g","apps":[${withProto(app({ id: 'x', labels: { b: 'c' } }), 'labels', '"x"')}]}`, at: '/apps/0/labels' },
];

t.test('an object key "__proto__" anywhere in a body: 400 naming where, nothing changed', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app({ id: '/a' }), headers: { 'content-type': 'application/json' } });
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: row.method, url: row.url, payload: row.payload, headers: { 'content-type': 'application/json' } });
    t.equal(res.statusCode, 400, `${row.name}: status (${res.body.slice(0, 200)})`);
    t.same(JSON.parse(res.body), refused(row.at), `${row.name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('keys that only look like it are kept: "constructor", "toString", "__proto", "proto__"', async (t) => {
  const fx = apiFor(t);
  const labels = { constructor: 'a', toString: 'b', __proto: 'c', proto__: 'd', hasOwnProperty: 'e' };
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app({ labels }), headers: { 'content-type': 'application/json' } });
  t.equal(res.statusCode, 201, res.body.slice(0, 200));
  const got = await fx.app.inject({ method: 'GET', url: '/v2/apps/b' });
  t.same((JSON.parse(got.body) as { app: { labels: Json } }).app.labels, labels);
});

t.test('"__proto__" inside a string value is just text', async (t) => {
  const fx = apiFor(t);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: app({ cmd: 'echo "__proto__"', labels: { k: '__proto__' } }), headers: { 'content-type': 'application/json' } });
  t.equal(res.statusCode, 201, res.body.slice(0, 200));
});
