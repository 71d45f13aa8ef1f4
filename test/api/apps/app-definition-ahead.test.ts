import t from 'tap';
import { standbyDeps } from '../../builders/standby-deps';
import type { ApiDeps } from '../../../src/api/api-deps';
import { renderAppDefinitionsAhead } from '../../../src/api/render/app-definition-ahead';
import { appDefinitionText, hasAppDefinitionText } from '../../../src/api/render/app-json';
import { appDefinitionJson } from '../../../src/marathon/render/app-definition-json';
import { allRunSpecs } from '../../../src/scheduler/index';
import type { AppSpec } from '../../../src/scheduler/model/app';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import { apiFor, appBody, call, created } from './apps-kit';

function appsOf(deps: ApiDeps): AppSpec[] {
  return allRunSpecs(deps.scheduler.root()).filter((s): s is AppSpec => s.kind === 'app');
}

/**
 * The API renders an app's definition text when the core starts its deployment
 * (render/app-definition-ahead.ts), so that the first `GET /v2/apps` after a deployment of many
 * apps finds them kept: after each change, with no read in between, every app the change deployed
 * has a kept definition text for the very spec object the list reads, and it is what the
 * definition serializes to.
 */
const changes: { name: string; run: (fx: ReturnType<typeof apiFor>) => Promise<void>; ids: string[] }[] = [
  { name: 'one app created', run: async (fx) => void await call(fx, 'POST', '/v2/apps', appBody({ id: '/one', instances: 2 })), ids: ['/one'] },
  {
    name: 'a group of three apps, one with a dependency (two steps)', ids: ['/g/a', '/g/b', '/g/c'],
    run: async (fx) => void await call(fx, 'POST', '/v2/groups', { id: '/g', apps: [appBody({ id: '/g/a' }), appBody({ id: '/g/b', dependencies: ['/g/a'] }), appBody({ id: '/g/c', instances: 0 })] }),
  },
  { name: 'an app scaled (a new spec object)', run: async (fx) => void await call(fx, 'PUT', '/v2/apps/one', { instances: 3 }), ids: ['/one'] },
  { name: 'an app changed (labels: a restart)', run: async (fx) => void await call(fx, 'PATCH', '/v2/apps/one', { labels: { tier: 'x' } }), ids: ['/one'] },
];

t.test('an app\'s definition is rendered when its deployment starts, before any read', async (t) => {
  const fx = apiFor(t);
  await created(t, fx, appBody({ id: '/first' }));
  for (const change of changes) {
    await change.run(fx);
    const specs = appsOf(fx.deps).filter((s) => change.ids.includes(s.id));
    t.equal(specs.length, change.ids.length, `${change.name}: deployed`);
    for (const spec of specs) {
      t.ok(hasAppDefinitionText(spec), `${change.name}: ${spec.id} kept before a read`);
      t.equal(appDefinitionText(spec), JSON.stringify(appDefinitionJson(spec)), `${change.name}: ${spec.id}'s text`);
    }
  }
  const res = await call(fx, 'GET', '/v2/apps');
  t.equal(res.status, 200);
  t.strictSame((res.json.apps as { id: string }[]).map((a) => a.id).sort(), ['/first', '/g/a', '/g/b', '/g/c', '/one'], 'the list shows them');
});

t.test('rendering ahead subscribes through subscribeCore when the deps have it (a standby has no core)', (t) => {
  const { deps, listeners, unsubscribed } = standbyDeps();
  const stop = renderAppDefinitionsAhead(deps);
  t.equal(listeners.length, 1, 'subscribed once through subscribeCore');
  t.doesNotThrow(() => listeners[0]({ eventType: 'deployment_info', plan: { steps: [{ actions: [{ action: 'StartApplication', app: '/x' }] }] } } as unknown as MarathonEvent), 'an event it cannot read is left to the read');
  stop();
  t.equal(unsubscribed(), 1, 'the returned function unsubscribes');
  t.end();
});
