import t from 'tap';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, type Json } from '../apps/apps-kit';

/**
 * A string holding the null character U+0000 (written `\u0000` in JSON) was accepted and stored,
 * and then every launch of the app failed on the local cluster (`must be a string without null
 * bytes`: a process's environment and arguments are C strings), found by an API trial on
 * 2026-12-03. Such a body is now refused before anything reads it: 400 "Invalid JSON" naming where
 * the string is, nothing stored (docs/limits.md, Requests).
 */
const app = (extra: Json): Json => ({ id: '/b', cmd: 'sleep 100', cpus: 0.1, mem: 32, instances: 0, ...extra });
const refused = (at: string): Json => ({ message: 'Invalid JSON', details: `A string with the null character (\\u0000) is not allowed (at ${at})` });

const rows: { name: string; method: 'POST' | 'PUT' | 'PATCH'; url: string; payload: unknown; at: string }[] = [
  { name: 'an env value', method: 'POST', url: '/v2/apps', payload: app({ env: { A: 'x\u0000y' } }), at: '/env/A' },
  { name: 'an env name', method: 'POST', url: '/v2/apps', payload: app({ env: { 'A\u0000': 'x' } }), at: '/env' },
  { name: 'a label value', method: 'POST', url: '/v2/apps', payload: app({ labels: { l: '\u0000' } }), at: '/labels/l' },
  { name: 'the command', method: 'POST', url: '/v2/apps', payload: app({ cmd: 'sleep 1\u0000; rm -rf /' }), at: '/cmd' },
  { name: 'an argument', method: 'POST', url: '/v2/apps', payload: app({ cmd: undefined, args: ['sleep', '1\u0000'] }), at: '/args/1' },
  { name: 'a partial update', method: 'PATCH', url: '/v2/apps/a', payload: { env: { B: '\u0000' } }, at: '/env/B' },
  { name: 'an app of a bulk update', method: 'PUT', url: '/v2/apps', payload: [app({ labels: { l: 'a\u0000' } })], at: '/0/labels/l' },
  { name: 'an app of a group', method: 'POST', url: '/v2/groups', payload: { id: '/g', apps: [app({ id: 'x', env: { C: '\u0000' } })] }, at: '/apps/0/env/C' },
];

t.test('a string with the null character anywhere in a body: 400 naming where, nothing changed', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: JSON.stringify(app({ id: '/a' })), headers: { 'content-type': 'application/json' } });
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await fx.app.inject({ method: row.method, url: row.url, payload: JSON.stringify(row.payload), headers: { 'content-type': 'application/json' } });
    t.equal(res.statusCode, 400, `${row.name}: status (${res.body.slice(0, 200)})`);
    t.same(JSON.parse(res.body), refused(row.at), `${row.name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('the text "\\u0000" (an escaped backslash before it) is just text', async (t) => {
  const fx = apiFor(t);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: JSON.stringify(app({ cmd: 'printf "\\u0000"', labels: { k: '\\u0000' } })), headers: { 'content-type': 'application/json' } });
  t.equal(res.statusCode, 201, res.body.slice(0, 200));
  const got = await fx.app.inject({ method: 'GET', url: '/v2/apps/b' });
  t.same((JSON.parse(got.body) as { app: { labels: Json } }).app.labels, { k: '\\u0000' });
});
