import t from 'tap';
import { RawSseClient } from '../api/events/raw-sse-client';
import { waitUntil } from '../api/events/wait-until';
import { makeOffer } from '../builders/cluster-builders';
import { app, behaviour, MARATHON, pacer } from './conformance-kit';

// Behaviours of issue 10 items 3-6 and 8 (agent-run health results, MESOS_* names, service
// ports, constraint validation, single-instance apps), through a real socket.

t.test(behaviour('issue 10.3: agent-run (MESOS_HTTP) health results reach tasks[].healthCheckResults and health_status_changed_event', MARATHON.healthChecks), async (t) => {
  const p = await pacer(t);
  const client = await RawSseClient.open(p.base, '/v2/events?event_type=health_status_changed_event');
  t.teardown(() => client.close());
  await p.call('POST', '/v2/apps', app('/foo', { healthChecks: [{ protocol: 'MESOS_HTTP', path: '/' }] }));
  const [launched] = p.server.harness.offer(makeOffer());
  p.server.harness.status(launched.taskId, 'TASK_RUNNING', { healthy: true });
  const task = (await p.call('GET', '/v2/apps/foo')).json.app.tasks[0];
  t.match(task?.healthCheckResults, [{ alive: true, consecutiveFailures: 0 }], 'the agent\'s result in healthCheckResults');
  // The stream writes once per loop turn: wait (bounded, generously: the default patience) for the event.
  await waitUntil(() => client.parsed().events.some((e) => e.event === 'health_status_changed_event'), 'health_status_changed_event');
  t.match(client.parsed().events, [{ data: { appId: '/foo', alive: true } }], 'health_status_changed_event');
});

t.test(behaviour('issue 10.4: MESOS_HTTP/MESOS_HTTPS/MESOS_TCP are stored and echoed under their Marathon names', MARATHON.healthChecks), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', app('/foo', { healthChecks: [{ protocol: 'MESOS_HTTP', path: '/' }] }));
  t.equal(res.json.healthChecks?.[0]?.protocol, 'MESOS_HTTP', 'echoed as MESOS_HTTP');
});

t.test(behaviour('issue 10.5: a dynamic service port (portDefinitions port 0) gets a port from 10000–20000 once deployed (fact 19)', MARATHON.servicePorts), async (t) => {
  const p = await pacer(t);
  await p.call('POST', '/v2/apps', app('/foo', { portDefinitions: [{ port: 0, name: 'http' }] }));
  p.runAll();
  const port = (await p.call('GET', '/v2/apps/foo')).json.app.portDefinitions[0].port;
  t.ok(port >= 10000 && port <= 20000, `service port ${port}`);
});

t.test(behaviour('issue 10.6: constraint values are validated: ["hostname","UNIQUE","x"] → 422 "UNIQUE does not accept a value" (fact 32)', MARATHON.scheduling), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', app('/foo', { constraints: [['hostname', 'UNIQUE', 'x']] }));
  t.equal(res.status, 422, '422');
  t.match(JSON.stringify(res.json), /UNIQUE does not accept a value/, 'Marathon\'s message');
});

t.test(behaviour('issue 10.8: MARATHON_SINGLE_INSTANCE_APP with instances > 1 → 422 (fact 34)', MARATHON.scheduling), async (t) => {
  const p = await pacer(t);
  const res = await p.call('POST', '/v2/apps', app('/foo', { instances: 2, labels: { MARATHON_SINGLE_INSTANCE_APP: 'true' } }));
  t.equal(res.status, 422, '422');
  t.match(JSON.stringify(res.json), /Single instance app may only have one instance/, 'Marathon\'s message');
});
