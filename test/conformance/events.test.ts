import t from 'tap';
import { RawSseClient } from '../api/events/raw-sse-client';
import type { SseEvent } from '../api/events/sse-parse';
import { waitUntil } from '../api/events/wait-until';
import { app, behaviour, MARATHON, pacer, TIMESTAMP } from './conformance-kit';

// The event stream as SSE consumers (load balancers, client libraries) read it
// (marathon-api-facts.md section J).

const WAIT_MS = 60_000;

/** Waits (bounded) until the client has an event of `type`, and answers the first one. */
async function first(client: RawSseClient, type: string, where: (e: SseEvent) => boolean = () => true): Promise<SseEvent> {
  await waitUntil(() => client.parsed().events.some((e) => e.event === type && where(e)), type, WAIT_MS);
  return client.parsed().events.find((e) => e.event === type && where(e)) as SseEvent;
}

t.test(behaviour('GET /v2/events with Accept: text/event-stream → 200 text/event-stream;charset=UTF-8, Connection: close; any other Accept → 405 (fact 101)', MARATHON.eventServlet), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base);
  t.teardown(() => client.close());
  t.equal(client.statusCode, 200);
  t.equal(client.headers['content-type'], 'text/event-stream;charset=UTF-8');
  t.equal(client.headers.connection, 'close');
  t.equal(client.headers['cache-control'], 'no-cache, no-store, must-revalidate');
  t.equal((await p.call('GET', '/v2/events')).status, 405);
});

t.test(behaviour('a new client first gets its own event_stream_attached {remoteAddress, eventType, timestamp}; frames are `event:`/`data:` with CRLF (facts 102, 103)', MARATHON.eventHandle), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base);
  t.teardown(() => client.close());
  await waitUntil(() => client.parsed().events.length > 0, 'the attached event', WAIT_MS);
  t.match(client.text, /^event: event_stream_attached\r\ndata: \{.*\}\r\n\r\n/);
  t.same(client.parsed().events[0].data, { remoteAddress: '127.0.0.1', eventType: 'event_stream_attached', timestamp: client.parsed().events[0].data.timestamp });
  t.match(client.parsed().events[0].data.timestamp, TIMESTAMP);
});

t.test(behaviour('event_type (repeatable, exact names) filters the stream (fact 104)', MARATHON.eventServlet), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, '/v2/events?event_type=group_change_success&event_type=deployment_success');
  t.teardown(() => client.close());
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);
  await p.call('POST', '/v2/apps', app('/foo'));
  p.runAll();
  await first(client, 'deployment_success');
  t.same([...new Set(client.parsed().events.map((e) => e.event))].sort(), ['deployment_success', 'group_change_success']);
});

t.test(behaviour('creating an app streams api_post_event (the app as created, no versionInfo), group_change_success, deployment_info with the full plan (facts 107, 108)', MARATHON.eventFormats), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base);
  t.teardown(() => client.close());
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);
  const before = (await p.call('GET', '/v2/groups')).json;
  const created = await p.call('POST', '/v2/apps', app('/prod/web'));
  const after = (await p.call('GET', '/v2/groups')).json;
  const post = await first(client, 'api_post_event');
  t.same(Object.keys(post.data).sort(), ['appDefinition', 'clientIp', 'eventType', 'timestamp', 'uri']);
  t.match(post.data, { clientIp: '127.0.0.1', uri: '/v2/apps', appDefinition: { id: '/prod/web', cmd: 'sleep 100' } });
  t.notOk('versionInfo' in (post.data.appDefinition as object), 'the app as created (fact 18)');
  t.same((await first(client, 'group_change_success')).data, {
    eventType: 'group_change_success', timestamp: created.json.version, groupId: '/prod', version: created.json.version,
  });
  const info = await first(client, 'deployment_info');
  const plan = info.data.plan as Record<string, unknown>;
  t.same(Object.keys(plan), ['id', 'original', 'target', 'steps', 'version'], 'the full plan (spec section 6), Marathon\'s key order');
  t.equal(plan.id, created.headers.get('marathon-deployment-id'));
  t.strictSame(plan.original, before, 'original exactly as GET /v2/groups rendered it before');
  t.strictSame(plan.target, after, 'target exactly as GET /v2/groups renders it after: no enforceRole on the root');
  t.match(info.data.currentStep, { actions: [{ action: 'StartApplication', app: '/prod/web' }] });
});

t.test(behaviour('plan-format=light: deployment plans without original/target (Marathon ≥ 1.6)', 'src/main/scala/mesosphere/marathon/core/event/impl/stream/HttpEventStreamServlet.scala (1.7)'), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, '/v2/events?plan-format=light');
  t.teardown(() => client.close());
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);
  await p.call('POST', '/v2/apps', app('/foo'));
  p.runAll();
  await first(client, 'deployment_success');
  for (const type of ['deployment_info', 'deployment_step_success', 'deployment_success']) {
    const event = await first(client, type);
    t.same(Object.keys(event.data.plan as object), ['id', 'steps', 'version'], type);
  }
});

t.test(behaviour('a launch streams status_update_event and instance_changed_event; the deployment ends with deployment_success and its light plan (facts 107, 108)', MARATHON.events), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base);
  t.teardown(() => client.close());
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const [launched] = p.runAll();
  const update = await first(client, 'status_update_event', (e) => e.data.taskStatus === 'TASK_RUNNING');
  t.same(Object.keys(update.data).sort(), ['appId', 'eventType', 'host', 'ipAddresses', 'message', 'ports', 'slaveId', 'taskId', 'taskStatus', 'timestamp', 'version']);
  t.match(update.data, { appId: '/foo', taskId: launched.taskId, version: created.json.version });
  const changed = await first(client, 'instance_changed_event', (e) => e.data.condition === 'Running');
  t.same(Object.keys(changed.data).sort(), ['agentId', 'condition', 'eventType', 'host', 'instanceId', 'runSpecId', 'runSpecVersion', 'timestamp']);
  t.match(changed.data, { instanceId: launched.instanceId, runSpecId: '/foo' });
  const success = await first(client, 'deployment_success');
  t.same(Object.keys(success.data).sort(), ['eventType', 'id', 'plan', 'timestamp']);
  t.equal(success.data.id, created.headers.get('marathon-deployment-id'));
  t.same(Object.keys(success.data.plan as object), ['id', 'steps', 'version'], 'deployment_success keeps the light plan (fact 106)');
  const types = client.parsed().events.map((e) => e.event);
  t.ok(types.lastIndexOf('deployment_success') > types.lastIndexOf('deployment_info'), 'success comes after the deployment\'s steps');
});

t.test(behaviour('deleting an app streams app_terminated_event {appId, eventType, timestamp} once it is stopped (fact 107)', MARATHON.events), async (t) => {
  const p = await pacer(t);
  await p.call('POST', '/v2/apps', app('/foo'));
  const [launched] = p.runAll();
  const client = await RawSseClient.open(p.base, '/v2/events?event_type=app_terminated_event');
  t.teardown(() => client.close());
  await waitUntil(() => p.server.hub.subscriberCount === 1, 'the client to attach', WAIT_MS);
  await p.call('DELETE', '/v2/apps/foo');
  p.server.harness.status(launched.taskId, 'TASK_KILLED');
  const terminated = await first(client, 'app_terminated_event');
  t.same(Object.keys(terminated.data).sort(), ['appId', 'eventType', 'timestamp']);
  t.equal(terminated.data.appId, '/foo');
});
