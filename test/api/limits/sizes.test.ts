import t from 'tap';
import { MAX_APPS_PER_REQUEST, MAX_ITEMS, MAX_KEY_LENGTH, MAX_STRING_LENGTH } from '../../../src/marathon/schemas/limits';
import { MAX_ID_LENGTH } from '../../../src/scheduler/groups/path-id';
import { stateSnapshot } from '../../fuzz/state-snapshot';
import { apiFor, appBody, call, type Json } from '../apps/apps-kit';
import { containerBody, podBody } from '../pods/pod-api-builders';

type Method = 'POST' | 'PUT' | 'PATCH';

interface Row {
  readonly name: string;
  readonly method: Method;
  readonly url: string;
  readonly body: unknown;
  readonly message: 'Invalid JSON' | 'Object is not valid';
  readonly path: string;
  readonly error: string;
}

const longId = `/${'a'.repeat(100_000)}`;
const entries = (n: number, value = 'v'): Json => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));
const app = (over: Json): Json => appBody({ id: '/a', ...over });

/** Issue 11 items 2 and 5: sizes are bounded, each with a clear 4xx (docs/limits.md). */
const rows: Row[] = [
  { name: 'an app id of 100,000 characters', method: 'POST', url: '/v2/apps', body: app({ id: longId }), message: 'Invalid JSON', path: '/id', error: 'error.maxLength' },
  { name: 'an app id one longer than the limit', method: 'POST', url: '/v2/apps', body: app({ id: `/${'a'.repeat(MAX_ID_LENGTH)}` }), message: 'Invalid JSON', path: '/id', error: 'error.maxLength' },
  { name: 'a pod id of 100,000 characters', method: 'POST', url: '/v2/pods', body: podBody({ id: longId }), message: 'Invalid JSON', path: '/id', error: 'error.maxLength' },
  { name: 'a group id of 100,000 characters', method: 'POST', url: '/v2/groups', body: { id: longId }, message: 'Invalid JSON', path: '/id', error: 'error.maxLength' },
  { name: 'a relative group id that grows too long below its parent', method: 'POST', url: `/v2/groups/${'b'.repeat(100)}`, body: { id: 'c'.repeat(40) }, message: 'Object is not valid', path: '/id', error: `must not be longer than ${MAX_ID_LENGTH} characters` },
  { name: 'a group\'s app id too long once resolved', method: 'POST', url: '/v2/groups', body: { id: `/${'g'.repeat(100)}`, apps: [app({ id: 'a'.repeat(40) })] }, message: 'Invalid JSON', path: '/apps(0)/id', error: 'error.maxLength' },
  { name: 'too many labels', method: 'POST', url: '/v2/apps', body: app({ labels: entries(MAX_ITEMS + 1) }), message: 'Invalid JSON', path: '/labels', error: 'error.maxLength' },
  { name: 'a label key too long', method: 'POST', url: '/v2/apps', body: app({ labels: { ['k'.repeat(MAX_KEY_LENGTH + 1)]: 'v' } }), message: 'Invalid JSON', path: '/labels', error: 'error.maxLength' },
  { name: 'a label value too long', method: 'POST', url: '/v2/apps', body: app({ labels: { k: 'v'.repeat(MAX_STRING_LENGTH + 1) } }), message: 'Invalid JSON', path: '/labels/k', error: 'error.maxLength' },
  { name: 'too many env variables', method: 'POST', url: '/v2/apps', body: app({ env: entries(MAX_ITEMS + 1) }), message: 'Invalid JSON', path: '/env', error: 'error.maxLength' },
  { name: 'an env value too long', method: 'POST', url: '/v2/apps', body: app({ env: { A: 'v'.repeat(MAX_STRING_LENGTH + 1) } }), message: 'Invalid JSON', path: '/env/A', error: 'error.maxLength' },
  { name: 'a cmd too long', method: 'POST', url: '/v2/apps', body: app({ cmd: 'x'.repeat(MAX_STRING_LENGTH + 1) }), message: 'Invalid JSON', path: '/cmd', error: 'error.maxLength' },
  { name: 'an arg too long', method: 'POST', url: '/v2/apps', body: app({ cmd: undefined, args: ['x'.repeat(MAX_STRING_LENGTH + 1)] }), message: 'Invalid JSON', path: '/args(0)', error: 'error.maxLength' },
  { name: 'too many args', method: 'POST', url: '/v2/apps', body: app({ cmd: undefined, args: Array.from({ length: MAX_ITEMS + 1 }, () => 'x') }), message: 'Invalid JSON', path: '/args', error: 'error.maxLength' },
  { name: 'too many constraints', method: 'POST', url: '/v2/apps', body: app({ constraints: Array.from({ length: MAX_ITEMS + 1 }, () => ['hostname', 'UNIQUE']) }), message: 'Invalid JSON', path: '/constraints', error: 'error.maxLength' },
  { name: 'a pod label value too long', method: 'POST', url: '/v2/pods', body: podBody({ labels: { k: 'v'.repeat(MAX_STRING_LENGTH + 1) } }), message: 'Invalid JSON', path: '/labels/k', error: 'error.maxLength' },
  { name: 'too many pod containers', method: 'POST', url: '/v2/pods', body: podBody({ containers: Array.from({ length: MAX_ITEMS + 1 }, (_, i) => containerBody({ name: `c${i}` })) }), message: 'Invalid JSON', path: '/containers', error: 'error.maxLength' },
  { name: 'a pod command too long', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ exec: { command: { shell: 'x'.repeat(MAX_STRING_LENGTH + 1) } } })] }), message: 'Invalid JSON', path: '/containers/0/exec/command/shell', error: 'error.maxLength' },
  { name: 'too many pod env variables', method: 'POST', url: '/v2/pods', body: podBody({ environment: entries(MAX_ITEMS + 1) }), message: 'Invalid JSON', path: '/environment', error: 'error.maxLength' },
  // Parts of a definition the schemas once left shapeless (kept and passed on, all the same a definition's strings, lists and maps).
  { name: 'too many argv entries of an app check', method: 'POST', url: '/v2/apps', body: app({ check: { exec: { command: { argv: Array.from({ length: MAX_ITEMS + 1 }, () => 'a') } } } }), message: 'Invalid JSON', path: '/check/exec/command/argv', error: 'error.maxLength' },
  { name: 'an argv entry of an app check too long', method: 'POST', url: '/v2/apps', body: app({ check: { exec: { command: { argv: ['a'.repeat(MAX_STRING_LENGTH + 1)] } } } }), message: 'Invalid JSON', path: '/check/exec/command/argv(0)', error: 'error.maxLength' },
  { name: 'too many argv entries of a pod container check', method: 'POST', url: '/v2/pods', body: podBody({ containers: [containerBody({ check: { exec: { command: { argv: Array.from({ length: MAX_ITEMS + 1 }, () => 'a') } } } })] }), message: 'Invalid JSON', path: '/containers/0/check/exec/command/argv', error: 'error.maxLength' },
  { name: 'a seccomp profile name too long', method: 'POST', url: '/v2/apps', body: app({ container: { type: 'MESOS', linuxInfo: { seccomp: { profileName: 'p'.repeat(MAX_STRING_LENGTH + 1) } } } }), message: 'Invalid JSON', path: '/container/linuxInfo/seccomp/profileName', error: 'error.maxLength' },
  { name: 'a pod seccomp profile name too long', method: 'POST', url: '/v2/pods', body: podBody({ linuxInfo: { seccomp: { profileName: 'p'.repeat(MAX_STRING_LENGTH + 1) } } }), message: 'Invalid JSON', path: '/linuxInfo/seccomp/profileName', error: 'error.maxLength' },
  { name: 'too many options of an external volume', method: 'POST', url: '/v2/apps', body: app({ container: { type: 'MESOS', volumes: [{ containerPath: '/d', mode: 'RW', external: { name: 'v', provider: 'dvdi', options: entries(MAX_ITEMS + 1) } }] } }), message: 'Invalid JSON', path: '/container/volumes(0)/external/options', error: 'error.maxLength' },
  { name: 'a CSI volume\'s mount flag too long', method: 'POST', url: '/v2/apps', body: app({ container: { type: 'MESOS', volumes: [{ containerPath: '/d', mode: 'RW', external: { name: 'v', provider: 'csi', options: { pluginName: 'p', capability: { accessMode: 'SINGLE_NODE_WRITER', accessType: 'mount', mountFlags: ['f'.repeat(MAX_STRING_LENGTH + 1)] } } } }] } }), message: 'Invalid JSON', path: '/container/volumes(0)/external/options/capability/mountFlags(0)', error: 'error.maxLength' },
  { name: 'too many apps in one group', method: 'POST', url: '/v2/groups', body: { id: '/g', apps: Array.from({ length: MAX_ITEMS + 1 }, (_, i) => appBody({ id: `a${i}` })) }, message: 'Invalid JSON', path: '/apps', error: 'error.maxLength' },
  { name: 'too many apps in one group body', method: 'POST', url: '/v2/groups', body: { id: '/g', groups: [0, 1].map((k) => ({ id: `s${k}`, apps: Array.from({ length: 600 }, (_, i) => appBody({ id: `a${i}` })) })) }, message: 'Object is not valid', path: '/', error: `a request may hold at most ${MAX_APPS_PER_REQUEST} apps, this one holds 1200` },
  { name: 'too many apps in one bulk update', method: 'PUT', url: '/v2/apps', body: Array.from({ length: MAX_APPS_PER_REQUEST + 1 }, (_, i) => appBody({ id: `/a${i}` })), message: 'Object is not valid', path: '/', error: `a request may hold at most ${MAX_APPS_PER_REQUEST} apps, this one holds ${MAX_APPS_PER_REQUEST + 1}` },
];

t.test('sizes beyond the limits: 422 with Marathon\'s body, nothing changed', async (t) => {
  for (const row of rows) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, row.method, row.url, row.body);
    t.equal(res.status, 422, `${row.name}: status (${res.text.slice(0, 200)})`);
    t.equal(res.json.message, row.message, `${row.name}: message`);
    const details = (res.json.details ?? []) as { path: string; errors: string[] }[];
    t.ok(details.some((d) => d.path === row.path && d.errors.includes(row.error)), `${row.name}: ${row.error} at ${row.path} in ${JSON.stringify(details).slice(0, 300)}`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${row.name}: nothing changed`);
  }
});

t.test('at the limits: accepted, and the Location header stays short', async (t) => {
  const fx = apiFor(t);
  const id = `/${'a'.repeat(MAX_ID_LENGTH - 1)}`;
  const res = await call(fx, 'POST', '/v2/apps', app({ id, labels: entries(MAX_ITEMS), env: { A: 'v'.repeat(MAX_STRING_LENGTH) } }));
  t.equal(res.status, 201, res.text.slice(0, 200));
  t.ok(String(res.headers.location).length < MAX_ID_LENGTH + 100, 'Location');
});

t.test('ids: . and .. segments are refused, not resolved (issue 11.5)', async (t) => {
  const cases: [string, 'POST' | 'PUT', string, unknown, Json][] = [
    ['an app id with ..', 'POST', '/v2/apps', app({ id: '/a/../b' }), { message: 'Object is not valid', details: [{ path: '/id', errors: ["Identifier is not child of '/a/..'"] }] }],
    ['an app id with .', 'POST', '/v2/apps', app({ id: '/a/./b' }), { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.pattern'] }] }],
    ['a bulk element id with ..', 'PUT', '/v2/apps', [app({ id: '/x/../b' })], { message: 'Object is not valid', details: [{ path: '/(0)/id', errors: ["Identifier is not child of '/x/..'"] }] }],
    ['a pod id with ..', 'POST', '/v2/pods', podBody({ id: '/a/../b' }), { message: 'Object is not valid', details: [{ path: '/id', errors: ["Identifier is not child of '/a/..'"] }] }],
    ['a pod id with .', 'POST', '/v2/pods', podBody({ id: '/a/./b' }), { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.pattern'] }] }],
    ['an uppercase app id', 'POST', '/v2/apps', app({ id: '/A' }), { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.pattern'] }] }],
    ['an uppercase pod id (was "Object is not valid")', 'POST', '/v2/pods', podBody({ id: '/a..b' }), { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.pattern'] }] }],
    ['an uppercase group id (was "Object is not valid")', 'POST', '/v2/groups', { id: '/A' }, { message: 'Invalid JSON', details: [{ path: '/id', errors: ['error.pattern'] }] }],
  ];
  for (const [name, method, url, body, json] of cases) {
    const fx = apiFor(t);
    const before = stateSnapshot(fx.harness.scheduler);
    const res = await call(fx, method, url, body);
    t.equal(res.status, 422, `${name}: status`);
    t.same(res.json, json, `${name}: body`);
    t.equal(stateSnapshot(fx.harness.scheduler), before, `${name}: nothing changed`);
  }
  const fx = apiFor(t);
  t.equal((await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [app({ id: '../b' })], groups: [{ id: 'sub', dependencies: ['../../x'] }] })).status, 422,
    'a relative ../ that leaves the group is still "not child" (group rule)');
  const ok = await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [app({ id: 'a', dependencies: ['../x'] })] });
  t.equal(ok.status, 201, `relative .. in dependencies is Marathon's way to name a sibling: ${ok.text.slice(0, 200)}`);
  t.same(fx.harness.scheduler.root().groups.get('/g')?.apps.get('/g/a')?.dependencies, ['/x']);
});
