import t, { type Test } from 'tap';
import { RawSseClient } from '../api/events/raw-sse-client';
import { waitUntil } from '../api/events/wait-until';
import { behaviour, MARATHON, pacer, runningApp, UUID, type Pacer, type Res } from './conformance-kit';

// Requests exactly as two Marathon client libraries of the npm registry send them, pinned so a
// change of pacer cannot break their users unnoticed (tried by hand on 2026-12-01 against a real
// pacer; no library is a dependency of this test):
// - marathon-node 1.1.0 (request 2.75 with `json: true`: `Accept: application/json`, an array in a
//   query string written with indices, `embed[0]=…`; `force`/`scale`/`wipe` always sent when the
//   caller passes a boolean, `false` included);
// - marathon-event-bus-client 0.1.7 (eventsource 1.1.2: `Accept: text/event-stream`,
//   `Cache-Control: no-cache`, a caller's `Authorization`, no `event_type` filter).

interface Case {
  readonly name: string;
  readonly source: string;
  /** The library's request against an app `/c` with two running instances. */
  readonly request: (p: Pacer) => Promise<Res>;
  readonly check: (t: Test, res: Res) => void;
}

const CASES: Case[] = [
  {
    name: 'apps.getOne(id, {embed: [...]}) → GET /v2/apps/c?embed%5B0%5D=…: the indexed name is not `embed`, ignored; tasks are embedded anyway (fact 38)',
    source: MARATHON.apps,
    request: (p) => p.call('GET', '/v2/apps/c?embed%5B0%5D=app.tasks&embed%5B1%5D=app.counts'),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.app.id, '/c');
      t.equal(res.json.app.tasks.length, 2);
    },
  },
  {
    name: 'apps.getList({embed: [...]}) → GET /v2/apps?embed%5B0%5D=apps.tasks: ignored as Jersey ignores an unknown parameter, so no `tasks` (facts 35, 36)',
    source: MARATHON.apps,
    request: (p) => p.call('GET', '/v2/apps?embed%5B0%5D=apps.tasks'),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.apps.length, 1);
      t.notOk('tasks' in res.json.apps[0]);
    },
  },
  {
    name: 'apps.update(id, body, false) → PUT /v2/apps/c?force=false → 200 {version, deploymentId}',
    source: MARATHON.apps,
    request: (p) => p.call('PUT', '/v2/apps/c?force=false', { instances: 3 }),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
      t.match(res.json.deploymentId, UUID);
    },
  },
  {
    name: 'apps.killTasks(id) without parameters → DELETE /v2/apps/c/tasks: no `host` kills every task of the app (fact 56)',
    source: MARATHON.appTasks,
    request: (p) => p.call('DELETE', '/v2/apps/c/tasks'),
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 2);
    },
  },
  {
    name: 'tasks.kill(body, false, true) → POST /v2/tasks/delete?scale=false&wipe=true → 200 {tasks} (fact 58)',
    source: MARATHON.tasks,
    request: async (p) => {
      const tasks = (await p.call('GET', '/v2/apps/c/tasks')).json.tasks as { id: string }[];
      return p.call('POST', '/v2/tasks/delete?scale=false&wipe=true', { ids: [tasks[0].id] });
    },
    check: (t, res) => {
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 1);
    },
  },
  ...['GET /v2/eventSubscriptions', 'POST /v2/eventSubscriptions?callbackUrl=http%3A%2F%2F127.0.0.1%3A9%2Fcb', 'DELETE /v2/eventSubscriptions?callbackUrl=http%3A%2F%2F127.0.0.1%3A9%2Fcb'].map((line): Case => ({
    name: `subscriptions → ${line}: HTTP callbacks are gone from Marathon 1.11, an unknown route → 404`,
    source: MARATHON.restResource,
    request: (p) => p.call(line.split(' ')[0], line.split(' ')[1]),
    check: (t, res) => {
      t.equal(res.status, 404);
      t.match(res.json.message, /not found/i);
    },
  })),
];

for (const c of CASES) {
  t.test(behaviour(`marathon-node: ${c.name}`, c.source), async (t) => {
    const p = await pacer(t);
    await runningApp(t, p, '/c', { instances: 2 });
    c.check(t, await c.request(p));
  });
}

t.test(behaviour('marathon-event-bus-client: its eventsource request (no filter, no-cache, a caller\'s Authorization while auth is off) gets the stream, first its own event_stream_attached (facts 101, 103)', MARATHON.eventServlet), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, '/v2/events', {
    Accept: 'text/event-stream', 'Cache-Control': 'no-cache', Authorization: 'Basic eDp5',
  });
  t.teardown(() => client.close());
  t.equal(client.statusCode, 200);
  t.equal(client.headers['content-type'], 'text/event-stream;charset=UTF-8');
  await waitUntil(() => client.parsed().events.length > 0, 'the attached event', 60_000);
  const first = client.parsed().events[0];
  t.equal(first.event, 'event_stream_attached');
  t.equal(first.data.eventType, 'event_stream_attached', 'the library JSON.parses data and reads it');
});
