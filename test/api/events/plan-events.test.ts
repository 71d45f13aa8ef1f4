import t from 'tap';
import { planFormatOf } from '../../../src/api/events/routes';
import { wireEventJson } from '../../../src/api/events/wire-event-json';
import type { Group } from '../../../src/scheduler/groups/group';
import type { FullPlan } from '../../../src/scheduler/model/events';
import { makeApi } from '../api-fixture';
import { call, type Json } from '../apps/apps-kit';
import { FakeSink } from './fake-sink';
import { makeHub } from './hub-fixture';
import { RawSseClient } from './raw-sse-client';
import { startSseServer } from './sse-server-fixture';
import { waitUntil } from './wait-until';

/**
 * Issue 10.7 / 13: the roots inside the plan of `deployment_info` and the step events are rendered
 * by the groups endpoint's own writer (no `enforceRole` on the root, apps by Marathon's app
 * writer), `plan-format=light` leaves them out, and each rendering is serialized once per event.
 */

t.test('the plan roots are exactly what GET /v2/groups answered before and after the change', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const before = (await call(fx, 'GET', '/v2/groups')).json;
  const res = await call(fx, 'POST', '/v2/apps', { id: '/prod/web', cmd: 'sleep 100', cpus: 0.1, mem: 32, env: {}, constraints: [] });
  t.equal(res.status, 201, res.text);
  const after = (await call(fx, 'GET', '/v2/groups')).json;
  const events = fx.harness.events().filter((e) => e.eventType === 'deployment_info' || e.eventType === 'deployment_step_success');
  t.ok(events.length >= 2, 'deployment_info and deployment_step_success');
  for (const event of events) {
    const wire = JSON.parse(JSON.stringify(wireEventJson(event, 'full'))) as { plan: Json };
    t.same(Object.keys(wire.plan), ['id', 'original', 'target', 'steps', 'version'], `${event.eventType}: Marathon's plan keys, in order`);
    t.strictSame(wire.plan.original, before, `${event.eventType}: original = GET /v2/groups before`);
    t.strictSame(wire.plan.target, after, `${event.eventType}: target = GET /v2/groups after`);
  }
  const target = JSON.parse(JSON.stringify(wireEventJson(events[0], 'full'))) as { plan: { target: Json & { groups: Json[] } } };
  t.notOk('enforceRole' in target.plan.target, 'no enforceRole on the root (the groups endpoint leaves it out)');
  t.equal(target.plan.target.groups[0].enforceRole, false, 'but on the top-level group');
  const app = (target.plan.target.groups[0].apps as Json[])[0];
  t.notOk('env' in app || 'constraints' in app, 'apps by Marathon\'s app writer (empty fields left out)');
});

t.test('a pod in the plan roots is its definition, where GET /v2/groups lists its status (the README says so)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await call(fx, 'POST', '/v2/pods', { id: '/db', containers: [{ name: 'c', exec: { command: { shell: 'sleep 100' } }, resources: { cpus: 0.1, mem: 32 } }] });
  t.equal(res.status, 201, res.text);
  const listed = ((await call(fx, 'GET', '/v2/groups')).json.pods as Json[])[0];
  t.ok('spec' in listed && 'status' in listed, 'GET /v2/groups: the pod\'s status');
  const info = fx.harness.events().find((e) => e.eventType === 'deployment_info');
  t.ok(info !== undefined, 'deployment_info');
  const wire = JSON.parse(JSON.stringify(wireEventJson(info!, 'full'))) as { plan: { target: { pods: Json[] } } };
  const [pod] = wire.plan.target.pods;
  t.equal(pod.id, '/db');
  t.ok('containers' in pod && !('status' in pod), 'the plan: the pod\'s definition');
  t.strictSame(pod, listed.spec, 'the definition GET /v2/groups embeds as the status\'s spec');
});

t.test('plan-format=light: {id, steps, version} only; other events are the same in both formats', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  t.equal((await call(fx, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 100' })).status, 201);
  for (const event of fx.harness.events()) {
    const light = wireEventJson(event, 'light') as unknown as Json;
    if ('plan' in event && 'original' in event.plan) {
      const { original: _o, target: _t, ...rest } = event.plan;
      t.strictSame(light.plan, rest, `${event.eventType}: the light plan`);
    } else t.equal(light, event, `${event.eventType}: unchanged`);
  }
});

/** A plan event over two empty roots, whose `currentStep` counts its serializations. */
function planEvent(counter: { n: number }): { eventType: string; timestamp: string; plan: FullPlan; currentStep: unknown } {
  const root = (version: string): Group => ({ id: '/', apps: new Map(), pods: new Map(), groups: new Map(), dependencies: [], enforceRole: false, version });
  return {
    eventType: 'deployment_info', timestamp: '2026-01-01T00:00:00.000Z',
    plan: { id: 'd1', steps: [], version: 'v2', original: root('v1'), target: root('v2') },
    currentStep: { toJSON: () => (counter.n++, { actions: [] }) },
  };
}

t.test('each distinct rendering is serialized once per event, whatever the number of subscribers', async (t) => {
  const { hub, bus } = makeHub();
  const sinks = { full: [0, 1, 2].map(() => new FakeSink()), light: [0, 1].map(() => new FakeSink()) };
  for (const sink of sinks.full) hub.attach(sink, { remoteAddress: '10.0.0.1', eventTypes: ['deployment_info'] });
  for (const sink of sinks.light) hub.attach(sink, { remoteAddress: '10.0.0.2', eventTypes: ['deployment_info'], planFormat: 'light' });
  const counter = { n: 0 };
  bus.emit(planEvent(counter));
  t.equal(counter.n, 2, 'two renderings (full, light), each serialized once');
  const full = sinks.full.map((s) => s.chunks[0]);
  const light = sinks.light.map((s) => s.chunks[0]);
  t.ok(full.every((f) => f === full[0]) && light.every((f) => f === light[0]), 'one Buffer per rendering, shared by its sockets');
  t.match(sinks.full[0].parsed().events[0].data, { plan: { id: 'd1', original: { id: '/', apps: [] }, target: { id: '/', version: 'v2' } } });
  t.strictSame(sinks.light[0].parsed().events[0].data.plan, { id: 'd1', steps: [], version: 'v2' });

  const onlyLight = makeHub();
  const sink = onlyLight.connect();
  const lightOnly = new FakeSink();
  onlyLight.hub.attach(lightOnly, { remoteAddress: '10.0.0.3', eventTypes: [], planFormat: 'light' });
  const other = { n: 0 };
  onlyLight.bus.emit({ eventType: 'status_update_event', timestamp: 'x', taskId: { toJSON: () => (other.n++, 't') } } as never);
  t.equal(other.n, 1, 'an event without a plan: one serialization for both formats');
  t.equal(sink.chunks.at(-1), lightOnly.chunks.at(-1), 'and one shared Buffer');
});

t.test('plan-format values: exactly `light` (case-sensitive, any of the repeated values) gives light plans; any other value the full plan, no error (Marathon 1.6/1.7)', async (t) => {
  const cases: { query: string; expected: 'light' | 'full' }[] = [
    { query: '', expected: 'full' },
    { query: 'plan-format=light', expected: 'light' },
    { query: 'plan-format=LIGHT', expected: 'full' },
    { query: 'plan-format=Light', expected: 'full' },
    { query: 'plan-format=full', expected: 'full' },
    { query: 'plan-format=heavy', expected: 'full' },
    { query: 'plan-format=', expected: 'full' },
    { query: 'plan-format=light%20', expected: 'full' },
    { query: 'plan-format=full&plan-format=light', expected: 'light' },
    { query: 'plan-format=LIGHT&plan-format=light', expected: 'light' },
  ];
  const queryOf = (qs: string): Record<string, string[]> => {
    const params = new URLSearchParams(qs);
    return Object.fromEntries([...new Set(params.keys())].map((k) => [k, params.getAll(k)]));
  };
  for (const c of cases) t.equal(planFormatOf(queryOf(c.query)), c.expected, c.query || '(none)');

  const server = await startSseServer();
  t.teardown(() => server.app.close());
  const clients = await Promise.all(cases.map((c) => RawSseClient.open(server.baseUrl, `/v2/events?event_type=deployment_info${c.query === '' ? '' : `&${c.query}`}`)));
  t.teardown(() => clients.forEach((c) => c.close()));
  t.same(clients.map((c) => c.statusCode), cases.map(() => 200), 'every value is accepted');
  await waitUntil(() => server.hub.subscriberCount === cases.length, 'every subscriber');
  const post = await fetch(`${server.baseUrl}/v2/apps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32 }),
  });
  t.equal(post.status, 201);
  for (const [i, c] of cases.entries()) {
    await waitUntil(() => clients[i].parsed().events.length >= 1, `deployment_info for ${c.query}`);
    const keys = Object.keys(clients[i].parsed().events[0].data.plan as Json);
    t.strictSame(keys, c.expected === 'light' ? ['id', 'steps', 'version'] : ['id', 'original', 'target', 'steps', 'version'], `over a real socket, ${c.query || '(none)'}: ${c.expected}`);
  }
});

t.test('over a real socket: the default stream carries the full plan, plan-format=light the light one', async (t) => {
  const server = await startSseServer();
  t.teardown(() => server.app.close());
  const full = await RawSseClient.open(server.baseUrl, '/v2/events?event_type=deployment_info');
  const light = await RawSseClient.open(server.baseUrl, '/v2/events?event_type=deployment_info&plan-format=light');
  const other = await RawSseClient.open(server.baseUrl, '/v2/events?event_type=deployment_info&plan-format=heavy');
  t.teardown(() => [full, light, other].forEach((c) => c.close()));
  await waitUntil(() => server.hub.subscriberCount === 3, 'three subscribers');
  const post = await fetch(`${server.baseUrl}/v2/apps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32 }),
  });
  t.equal(post.status, 201);
  const groups = await (await fetch(`${server.baseUrl}/v2/groups`)).json() as Json;
  for (const c of [full, light, other]) await waitUntil(() => c.parsed().events.length >= 2, 'both deployment_info events');
  const fullPlan = full.parsed().events[1].data.plan as Json;
  t.strictSame(fullPlan.target, groups, 'target as GET /v2/groups renders it');
  t.strictSame(Object.keys(light.parsed().events[1].data.plan as Json), ['id', 'steps', 'version'], 'plan-format=light');
  t.ok('original' in (other.parsed().events[1].data.plan as Json), 'any other plan-format value: the full plan');
});
