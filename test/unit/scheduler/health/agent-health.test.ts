import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeContainer, makeEndpoint, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

t.test('agent-run checks travel with the launch, with their port resolved; the scheduler never probes', async (t) => {
  const h = new Harness();
  const check = makeHealthCheck({ protocol: 'MESOS_HTTP', portIndex: 1, gracePeriodMs: 0 });
  h.put(makeApp({ hostPorts: [0, 0], healthChecks: [check] }));
  const [l] = h.offer(makeOffer());
  t.same(l.healthCheck, { check, port: l.hostPorts[1] });
  h.run(l);
  h.advance(600_000);
  t.same(h.prober.requests, []);

  const h2 = new Harness();
  const cmd = makeHealthCheck({ protocol: 'COMMAND', command: 'true' });
  h2.put(makeApp({ healthChecks: [cmd] }));
  t.same(h2.offer(makeOffer())[0].healthCheck, { check: cmd });
});

t.test('pod container checks resolve their endpoint to its host port, else its container port', async (t) => {
  const h = new Harness();
  const web = makeHealthCheck({ protocol: 'MESOS_HTTP', endpoint: 'http' });
  const side = makeHealthCheck({ protocol: 'MESOS_TCP', endpoint: 'internal' });
  h.put(makePod({
    containers: [
      makeContainer({ name: 'web', endpoints: [makeEndpoint({ name: 'admin', hostPort: 0 }), makeEndpoint({ name: 'http', hostPort: 0 })], healthCheck: web }),
      makeContainer({ name: 'side', endpoints: [makeEndpoint({ name: 'internal', containerPort: 8080 })], healthCheck: side }),
      makeContainer({ name: 'plain' }),
    ],
  }));
  const [w, s, p] = h.offer(makeOffer());
  t.same(w.healthCheck, { check: web, port: w.hostPorts[1] });
  t.same(s.healthCheck, { check: side, port: 8080 });
  t.equal(p.healthCheck, undefined);
});

t.test('agent-run health in status updates: instance_health_changed_event on each change', async (t) => {
  const h = new Harness();
  const app = makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP' })] });
  h.put(app);
  const [l] = h.offer(makeOffer());
  h.status(l.taskId, 'TASK_RUNNING');
  const inst = h.scheduler.instance(l.instanceId);
  t.equal(inst?.healthy, undefined, 'unknown until reported');
  t.same(h.events('instance_health_changed_event'), []);
  h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  t.same(h.events('instance_health_changed_event'), [{
    eventType: 'instance_health_changed_event', timestamp: '2026-01-01T00:00:00.000Z', instanceId: l.instanceId,
    runSpecId: '/app', runSpecVersion: app.version, healthy: true,
  }]);
  t.same(h.events('status_update_event').length, 1, 'a health-only update is no status change');
  h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  t.equal(h.events('instance_health_changed_event').length, 1, 'unchanged: no event');
  h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
  t.same(h.events('instance_health_changed_event').map((e) => e.healthy), [true, false]);
  t.equal(inst?.healthy, false);
  t.same(h.events('health_status_changed_event').map((e) => e.alive), [true, false], 'the agent\'s verdicts flip health_status_changed_event too');
  t.same(h.calls('kill'), [], 'the agent decides kills');
});

t.test('pod: healthy when every checked container is healthy', async (t) => {
  const h = new Harness();
  const hc = makeHealthCheck({ protocol: 'MESOS_HTTP', endpoint: 'e' });
  const launched = h.deploy(makePod({
    containers: [
      makeContainer({ name: 'a', endpoints: [makeEndpoint({ name: 'e', hostPort: 0 })], healthCheck: hc }),
      makeContainer({ name: 'b', endpoints: [makeEndpoint({ name: 'e', hostPort: 0 })], healthCheck: hc }),
      makeContainer({ name: 'c' }),
    ],
  }));
  const inst = h.scheduler.instance(launched[0].instanceId);
  h.status(launched[0].taskId, 'TASK_RUNNING', { healthy: true });
  t.equal(inst?.healthy, undefined);
  h.status(launched[1].taskId, 'TASK_RUNNING', { healthy: true });
  t.equal(inst?.healthy, true);
  h.status(launched[1].taskId, 'TASK_RUNNING', { healthy: false });
  t.equal(inst?.healthy, false);
});

t.test('an agent-run kill for failed health is detected: kill events, then relaunch with backoff', async (t) => {
  const h = new Harness();
  const app = makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP', maxConsecutiveFailures: 3 })] });
  const [l] = h.deploy(app, makeOffer({ agent: { agentId: 'a1', hostname: 'h1' } }));
  h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
  h.clearRecords();
  h.status(l.taskId, 'TASK_KILLED', { healthy: false, message: 'health check failed' });
  const ts = '2026-01-01T00:00:00.000Z';
  const reason = 'health check failed on the agent';
  t.same(h.events().filter((e) => e.eventType.startsWith('unhealthy_')), [
    { eventType: 'unhealthy_task_kill_event', timestamp: ts, appId: '/app', taskId: l.taskId, version: app.version, reason, host: 'h1', slaveId: 'a1' },
    { eventType: 'unhealthy_instance_kill_event', timestamp: ts, appId: '/app', taskId: l.taskId, instanceId: l.instanceId, version: app.version, reason, host: 'h1', slaveId: 'a1' },
  ]);
  t.same(h.calls('kill'), [], 'the agent already killed it');
  t.same(h.conditions('/app'), ['Scheduled'], 'same instance, back in the queue');
  t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000);
});

t.test('a TASK_KILLED that is not a health kill emits no unhealthy events', async (t) => {
  for (const [name, withCheck, healthy, userKill] of [
    ['healthy task killed', true, true, false],
    ['no agent check', false, false, false],
    ['user kill of an unhealthy task', true, false, true],
  ] as const) {
    const h = new Harness();
    const [l] = h.deploy(makeApp({ healthChecks: withCheck ? [makeHealthCheck({ protocol: 'MESOS_TCP' })] : [] }));
    if (userKill) h.kill('/app', [l.instanceId]);
    h.status(l.taskId, 'TASK_KILLED', { healthy });
    t.same(h.events().filter((e) => e.eventType.startsWith('unhealthy_')), [], name);
  }
});
