import t from 'tap';
import { makeApi } from '../api-fixture';

/*
 * Marathon's rules for an app's DVDI volumes that hold for every root change
 * (DVDIProviderValidations.app and rootGroup, from RootGroup.validRootGroup): one instance at most,
 * a non-shared volume name declared once in the app and by no other app, and
 * maximumOverCapacity 0. pacer answered 201 and then ran two tasks on one Docker volume. A create,
 * an update, a scale and a group write are all refused, and nothing changes.
 */

const volume = (name: string, over: Record<string, unknown> = {}) => ({
  containerPath: 'data', mode: 'RW', external: { name, provider: 'dvdi', options: { 'dvdi/driver': 'rexray' }, ...over },
});
const app = (id: string, over: Record<string, unknown> = {}, volumes: unknown[] = [volume('vol')]) => ({
  id, cmd: 'sleep 1000', cpus: 0.01, mem: 16, instances: 1, container: { type: 'MESOS', volumes }, ...over,
});
const FEATURES = { config: { features: ['external_volumes'] } };

interface Case {
  readonly name: string;
  /** Apps created first (each must be accepted). */
  readonly before: readonly Record<string, unknown>[];
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly url: string;
  readonly body: Record<string, unknown>;
  /** Marathon's details; absent: accepted. */
  readonly details?: readonly { path: string; errors: string[] }[];
}

const INSTANCES = (id: string) => `Number of instances is limited to 1 when declaring DVDI volumes in app [${id}]`;

const cases: readonly Case[] = [
  { name: 'one instance', before: [], method: 'POST', url: '/v2/apps', body: app('/a') },
  {
    name: 'two instances', before: [], method: 'POST', url: '/v2/apps', body: app('/a', { instances: 2 }),
    details: [{ path: '/', errors: [INSTANCES('/a')] }],
  },
  {
    name: 'scaled to two by an update', before: [app('/a')], method: 'PUT', url: '/v2/apps/a', body: { instances: 2 },
    details: [{ path: '/', errors: [INSTANCES('/a')] }],
  },
  {
    name: 'scaled to two by a group write', before: [app('/g/a')], method: 'PUT', url: '/v2/groups/g', body: { scaleBy: 2 },
    details: [{ path: '/', errors: [INSTANCES('/g/a')] }],
  },
  {
    name: 'an upgrade strategy with over-capacity', before: [], method: 'POST', url: '/v2/apps',
    body: app('/a', { upgradeStrategy: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0.5 } }),
    details: [{ path: '/upgradeStrategy/maximumOverCapacity', errors: ['got 0.5, expected 0.0'] }],
  },
  {
    name: 'a name declared twice in the app', before: [], method: 'POST', url: '/v2/apps',
    body: app('/a', {}, [volume('vol'), { ...volume('vol'), containerPath: 'more' }]),
    details: [
      { path: '/container/volumes', errors: ['Volume names must be unique'] },
    ],
  },
  {
    name: 'a name another app uses', before: [app('/b')], method: 'POST', url: '/v2/apps', body: app('/a'),
    details: [{ path: '/container', errors: ["Volume name 'vol' in /a conflicts with volume(s) of same name in app(s): /b"] }],
  },
  { name: 'a shared name another app shares', before: [app('/b', {}, [volume('vol', { shared: true })])], method: 'POST', url: '/v2/apps', body: app('/a', {}, [volume('vol', { shared: true })]) },
  { name: 'another name beside another app\'s volume', before: [app('/b')], method: 'POST', url: '/v2/apps', body: app('/a', {}, [volume('other')]) },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const fx = makeApi(FEATURES);
    t.teardown(() => fx.app.close());
    for (const body of c.before) {
      const created = await fx.app.inject({ method: 'POST', url: '/v2/apps', payload: body });
      t.equal(created.statusCode, 201, created.body);
    }
    const rootBefore = fx.deps.scheduler.root();
    const res = await fx.app.inject({ method: c.method, url: c.url, payload: c.body });
    if (c.details === undefined) {
      t.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
      return;
    }
    t.equal(res.statusCode, 422, res.body);
    t.strictSame(res.json(), { message: 'Object is not valid', details: c.details });
    t.equal(fx.deps.scheduler.root(), rootBefore, 'nothing changed');
  });
}
