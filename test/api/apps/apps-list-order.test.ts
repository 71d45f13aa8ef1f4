import t from 'tap';
import { allRunSpecs } from '../../../src/scheduler/index';
import { apiFor, appBody, call, created } from './apps-kit';

/**
 * `GET /v2/apps` lists apps in path order (fact 35), the sorted list kept per root object
 * (src/api/v2/apps/app-read.ts appsOf): after every kind of change — a scale and a restart (same
 * ids), an app added before, between and after the others, one removed, one in a new subgroup,
 * one replaced by an app of another id — the list is exactly the core's apps in path order, with
 * their current definitions (a new root is never answered from an old one's list).
 */
t.test('the list is in path order after every kind of change', async (t) => {
  const fx = apiFor(t);
  for (const id of ['/m/b', '/m/d', '/z']) await created(t, fx, appBody({ id, instances: 0 }));
  const steps: { name: string; run: () => Promise<unknown> }[] = [
    { name: 'a scale (same ids)', run: () => call(fx, 'PUT', '/v2/apps/m/b', { instances: 1 }) },
    { name: 'a restart (same ids)', run: () => call(fx, 'POST', '/v2/apps/m/d/restart') },
    { name: 'an app added first', run: () => call(fx, 'POST', '/v2/apps', appBody({ id: '/a', instances: 0 })) },
    { name: 'an app added between', run: () => call(fx, 'POST', '/v2/apps', appBody({ id: '/m/c', instances: 0 })) },
    { name: 'an app in a new subgroup', run: () => call(fx, 'POST', '/v2/apps', appBody({ id: '/m/x/y', instances: 0 })) },
    { name: 'an app removed', run: () => call(fx, 'DELETE', '/v2/apps/m/c') },
    { name: 'a label changed (same ids)', run: () => call(fx, 'PATCH', '/v2/apps/z', { labels: { k: 'v' } }) },
    { name: 'one app removed, another added: as many apps', run: async () => { await call(fx, 'DELETE', '/v2/apps/a'); return call(fx, 'POST', '/v2/apps', appBody({ id: '/n', instances: 0 })); } },
  ];
  for (const step of [{ name: 'first read', run: async () => undefined }, ...steps]) {
    await step.run();
    const res = await call(fx, 'GET', '/v2/apps');
    const expected = allRunSpecs(fx.deps.scheduler.root()).filter((s) => s.kind === 'app');
    const apps = res.json.apps as { id: string; version: string; labels?: Record<string, string> }[];
    t.strictSame(apps.map((a) => a.id), expected.map((s) => s.id), `${step.name}: the core's apps in path order`);
    t.strictSame(apps.map((a) => a.version), expected.map((s) => s.version), `${step.name}: each as the core has it now`);
  }
  t.strictSame(((await call(fx, 'GET', '/v2/apps')).json.apps as { id: string }[]).map((a) => a.id), ['/m/b', '/m/d', '/m/x/y', '/n', '/z'], 'the final order');
});
