import { EventSource } from 'eventsource';
import t, { type Test } from 'tap';
import type { EventType } from '../../../src/scheduler/model/events';
import { makeApp } from '../../builders/run-spec-builders';
import { makeApi } from '../api-fixture';
import { RawSseClient } from './raw-sse-client';
import { startSseServer, type SseServer } from './sse-server-fixture';
import { typesOf } from './sse-parse';
import { waitUntil } from './wait-until';
import { wireEventJson } from '../../../src/api/events/wire-event-json';

/** Every core event type, so an EventSource can listen to them all (named events need a listener each). */
const CORE_TYPES: readonly EventType[] = [
  'status_update_event', 'instance_changed_event', 'instance_health_changed_event', 'health_status_changed_event',
  'failed_health_check_event', 'add_health_check_event', 'remove_health_check_event', 'unhealthy_task_kill_event',
  'unhealthy_instance_kill_event', 'unknown_instance_terminated_event', 'app_terminated_event', 'deployment_info',
  'deployment_step_success', 'deployment_step_failure', 'deployment_success', 'deployment_failed',
  'group_change_success', 'group_change_failed',
];
const STREAM_TYPES = ['event_stream_attached', 'event_stream_detached', 'api_post_event', ...CORE_TYPES];

async function serve(t: Test, opts: { bufferSize?: number; keepAliveMs?: number; maxSubscribers?: number } = {}): Promise<SseServer> {
  const server = await startSseServer(opts);
  t.teardown(() => server.app.close());
  return server;
}

async function open(t: Test, server: SseServer, path = '/v2/events'): Promise<RawSseClient> {
  const client = await RawSseClient.open(server.baseUrl, path);
  t.teardown(() => client.close());
  return client;
}

interface Received {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** A real SSE client (the `eventsource` package) collecting every known event type in order. */
function listen(t: Test, url: string): Received[] {
  const received: Received[] = [];
  const source = new EventSource(url);
  t.teardown(() => source.close());
  for (const type of STREAM_TYPES) {
    source.addEventListener(type, (e) => received.push({ type, data: JSON.parse(e.data) as Record<string, unknown> }));
  }
  return received;
}

t.test('without Accept: text/event-stream the answer is 405 (fact 101)', async (t) => {
  const { app } = await serve(t);
  for (const accept of [undefined, 'application/json', '*/*']) {
    const res = await app.inject({ method: 'GET', url: '/v2/events', headers: accept === undefined ? {} : { accept } });
    t.equal(res.statusCode, 405, String(accept));
    t.match(res.headers['content-type'], /^application\/json/);
    t.match(res.json(), { message: /text\/event-stream/ });
  }
});

t.test('the stream answers 200 with SSE and no-cache headers, attached first (facts 12, 101, 103)', async (t) => {
  const server = await serve(t);
  const client = await open(t, server);
  t.equal(client.statusCode, 200);
  t.match(client.headers, {
    'content-type': 'text/event-stream;charset=UTF-8',
    'cache-control': 'no-cache, no-store, must-revalidate',
    pragma: 'no-cache',
    expires: '0',
    'x-marathon-leader': 'http://127.0.0.1:8080',
  });
  await waitUntil(() => client.parsed().events.length > 0, 'the attached event');
  t.strictSame(client.parsed().events[0], {
    event: 'event_stream_attached',
    data: { remoteAddress: '127.0.0.1', eventType: 'event_stream_attached', timestamp: '2026-01-01T00:00:00.000Z' },
  });
});

t.test('an EventSource receives attached, then core and API events in order', async (t) => {
  const server = await serve(t);
  const received = listen(t, `${server.baseUrl}/v2/events`);
  await waitUntil(() => received.length > 0, 'the attached event');
  server.harness.clearRecords();
  server.harness.deploy(makeApp({ id: '/web', instances: 1 }));
  const postEvent = { eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', clientIp: '127.0.0.1', uri: '/v2/apps/web' };
  server.deps.events.publish(postEvent);
  const coreEvents = server.harness.events();
  t.ok(coreEvents.some((e) => e.eventType === 'deployment_success'), 'the deployment finished in the core');
  // Deployment plans go out with their roots rendered (plan-events.test.ts pins that rendering).
  const expected = [...coreEvents.map((e) => wireEventJson(e, 'full')), postEvent];
  await waitUntil(() => received.length >= 1 + expected.length, 'every event');
  t.equal(received[0].type, 'event_stream_attached');
  t.strictSame(received.slice(1).map((r) => r.data), JSON.parse(JSON.stringify(expected)));
  t.ok(received.every((r) => r.type === r.data.eventType), 'the SSE event name is the eventType');
});

t.test('repeated event_type filters the stream (fact 104)', async (t) => {
  const server = await serve(t);
  const filtered = await open(t, server, '/v2/events?event_type=status_update_event&event_type=deployment_success');
  const all = await open(t, server);
  await waitUntil(() => all.parsed().events.length > 0, 'the unfiltered attach');
  server.harness.deploy(makeApp({ id: '/web', instances: 2 }));
  await waitUntil(() => filtered.parsed().events.some((e) => e.event === 'deployment_success'), 'deployment_success');
  const types = new Set(typesOf(filtered.parsed().events));
  t.strictSame([...types].sort(), ['deployment_success', 'status_update_event']);
  t.equal(typesOf(filtered.parsed().events).filter((x) => x === 'status_update_event').length, 6, '3 updates × 2 tasks');
});

t.test('a burst of over 1024 events from one core input reaches a reading client whole', async (t) => {
  const server = await serve(t);
  const client = await open(t, server, '/v2/events?event_type=instance_changed_event');
  await waitUntil(() => server.hub.subscriberCount === 1, 'the client to attach');
  server.harness.put(makeApp({ id: '/many', instances: 2000 })); // one input, ~2000 events at once
  const burst = server.harness.events('instance_changed_event').length;
  t.ok(burst > 1024, `${burst} instance_changed_event in one input`);
  await waitUntil(() => client.closed || client.parsed().events.length === burst, 'the whole burst or a disconnect');
  t.notOk(client.closed, 'never disconnected');
  t.equal(client.parsed().events.length, burst);
});

t.test('a client that disconnects is detached and the others hear of it (fact 103)', async (t) => {
  const server = await serve(t);
  const observer = await open(t, server, '/v2/events?event_type=event_stream_detached');
  const leaving = await open(t, server);
  await waitUntil(() => server.hub.subscriberCount === 2, 'two clients');
  leaving.close();
  await waitUntil(() => observer.parsed().events.length > 0, 'the detached event');
  t.equal(server.hub.subscriberCount, 1);
  t.match(observer.parsed().events[0].data, { remoteAddress: '127.0.0.1', eventType: 'event_stream_detached' });
});

t.test('keep-alives arrive as bare CRLF and are not events (fact 102)', async (t) => {
  const server = await serve(t, { keepAliveMs: 10 });
  const client = await open(t, server, '/v2/events?event_type=none');
  await waitUntil(() => client.parsed().keepAlives >= 2, 'two keep-alives');
  t.match(client.text, /^(\r\n)+$/);
  t.equal(client.parsed().events.length, 0);
});

t.test('closing the server ends open streams', async (t) => {
  const server = await startSseServer();
  const client = await RawSseClient.open(server.baseUrl);
  t.teardown(() => client.close());
  await waitUntil(() => server.hub.subscriberCount === 1, 'the client attached');
  await server.app.close();
  await waitUntil(() => client.closed, 'the stream to end');
  t.equal(server.hub.subscriberCount, 0);
});

t.test('HEAD is not a way into the stream', async (t) => {
  const { app } = await serve(t);
  const res = await app.inject({ method: 'HEAD', url: '/v2/events', headers: { accept: 'text/event-stream' } });
  // What the README says of it, the one exception to "HEAD answers wherever GET does".
  t.equal(res.statusCode, 405);
  t.equal(res.headers.allow, 'GET, OPTIONS');
});

t.test('a server built without an attachable stream does not serve /v2/events', async (t) => {
  const { app } = makeApi();
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'GET', url: '/v2/events', headers: { accept: 'text/event-stream' } });
  t.equal(res.statusCode, 404);
});

t.test('a client past the bound on subscribers gets 429 naming it, and attaches once one left (docs/limits.md)', async (t) => {
  const server = await serve(t, { maxSubscribers: 2 });
  const first = await open(t, server);
  await open(t, server);
  t.equal(server.hub.subscriberCount, 2);
  const refused = await fetch(`${server.baseUrl}/v2/events`, { headers: { accept: 'text/event-stream' } });
  t.equal(refused.status, 429, 'the third is refused, not streamed');
  t.match(refused.headers.get('content-type'), /^application\/json/);
  t.same(await refused.json(), { message: '/v2/events has as many subscribers as it takes (2); try again later' });
  t.equal(server.hub.subscriberCount, 2, 'nothing attached for it');
  first.close();
  await waitUntil(() => server.hub.subscriberCount === 1, 'the first client detached');
  const again = await open(t, server);
  t.equal(again.statusCode, 200, 'a place is free again');
  t.equal(server.hub.subscriberCount, 2);
});

t.test('frames carry no id: and a client reconnecting with Last-Event-ID is replayed nothing (Marathon keeps no event history)', async (t) => {
  const server = await serve(t);
  const first = await open(t, server);
  await waitUntil(() => server.hub.subscriberCount === 1, 'the first client attached');
  server.harness.deploy(makeApp({ id: '/web', instances: 1 }));
  await waitUntil(() => first.parsed().events.some((e) => e.event === 'deployment_success'), 'the deployment events');
  t.notMatch(first.text, /(^|\r\n)id:/, 'no frame names an id a client could resume from');
  first.close();
  await waitUntil(() => server.hub.subscriberCount === 0, 'the first client detached');
  const again = await RawSseClient.open(server.baseUrl, '/v2/events', { Accept: 'text/event-stream', 'Last-Event-ID': '3' });
  t.teardown(() => again.close());
  t.equal(again.statusCode, 200, 'the header is ignored, not refused');
  await waitUntil(() => again.parsed().events.length > 0, 'the attached event');
  server.harness.deploy(makeApp({ id: '/other', instances: 1 }));
  await waitUntil(() => again.parsed().events.some((e) => e.event === 'deployment_success'), 'the new deployment');
  const types = typesOf(again.parsed().events);
  t.equal(types[0], 'event_stream_attached', 'the stream starts with the attach, not with what was missed');
  t.equal(types.filter((x) => x === 'deployment_success').length, 1, 'only the deployment made after the reconnect');
});
