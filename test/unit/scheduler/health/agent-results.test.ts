import t from 'tap';
import type { HealthCheckProtocol } from '../../../../src/scheduler/model/health-check';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeContainer, makeEndpoint, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/**
 * The agent's verdicts on agent-run checks become the same per-instance results and events as
 * scheduler-run probes (Marathon 1.11: `MarathonHealthCheckManager.update` → `HealthCheckActor`).
 */

const AGENT_RUN: readonly HealthCheckProtocol[] = ['MESOS_HTTP', 'MESOS_HTTPS', 'MESOS_TCP', 'COMMAND'];

for (const protocol of AGENT_RUN) {
  t.test(`${protocol}: verdicts are results with Marathon's fields, and events`, async (t) => {
    const h = new Harness();
    const check = makeHealthCheck({ protocol, gracePeriodMs: 0, ...(protocol === 'COMMAND' ? { command: 'true' } : {}) });
    const app = makeApp({ hostPorts: [0], healthChecks: [check] });
    const [l] = h.deploy(app);
    const startMs = h.nowMs;
    t.match(h.scheduler.healthChecks(l.instanceId), [{ alive: undefined, consecutiveFailures: 0 }], 'running, no verdict yet');

    h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
    t.match(h.scheduler.healthChecks(l.instanceId), [{ alive: true, consecutiveFailures: 0, firstSuccessMs: startMs, lastSuccessMs: startMs }]);
    t.same(h.events('health_status_changed_event'), [{
      eventType: 'health_status_changed_event', timestamp: '2026-01-01T00:00:00.000Z', appId: '/app',
      instanceId: l.instanceId, version: app.version, alive: true,
    }]);

    h.advance(10_000);
    h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
    t.match(h.scheduler.healthChecks(l.instanceId), [{
      alive: false, consecutiveFailures: 1, firstSuccessMs: startMs, lastSuccessMs: startMs, lastFailureMs: startMs + 10_000, lastFailureCause: '',
    }]);
    t.same(h.events('failed_health_check_event'), [{
      eventType: 'failed_health_check_event', timestamp: '2026-01-01T00:00:10.000Z', appId: '/app', taskId: l.taskId, healthCheck: check,
    }]);
    t.same(h.events('health_status_changed_event').map((e) => e.alive), [true, false]);

    h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
    t.match(h.scheduler.healthChecks(l.instanceId), [{ consecutiveFailures: 1 }], 'an update that changes nothing is not a new result (Marathon: Noop)');
    t.equal(h.events('failed_health_check_event').length, 1);

    h.advance(10_000);
    h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
    t.match(h.scheduler.healthChecks(l.instanceId), [{ alive: true, consecutiveFailures: 0, firstSuccessMs: startMs, lastSuccessMs: startMs + 20_000 }]);
    t.same(h.calls('kill'), [], 'the agent decides kills');
  });
}

t.test('failures within the grace period before the first success are ignored, as for scheduler-run checks', async (t) => {
  const h = new Harness();
  const [l] = h.deploy(makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_TCP', gracePeriodMs: 60_000 })] }));
  h.advance(10_000);
  h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
  t.match(h.scheduler.healthChecks(l.instanceId), [{ alive: undefined, consecutiveFailures: 0 }]);
  t.same(h.events('failed_health_check_event'), []);
  h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  h.status(l.taskId, 'TASK_RUNNING', { healthy: false });
  t.match(h.scheduler.healthChecks(l.instanceId), [{ alive: false, consecutiveFailures: 1 }], 'after a success the grace period is over');
});

t.test('a verdict on a task that is not running (killing) is not a failure', async (t) => {
  const h = new Harness();
  const [l] = h.deploy(makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP', gracePeriodMs: 0 })] }));
  h.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  h.status(l.taskId, 'TASK_KILLING', { healthy: false });
  t.same(h.events('failed_health_check_event'), []);
});

t.test('pod container checks: each container\'s task speaks for its own check', async (t) => {
  const h = new Harness();
  const check = makeHealthCheck({ protocol: 'MESOS_HTTP', endpoint: 'e', gracePeriodMs: 0 });
  const pod = makePod({
    containers: [
      makeContainer({ name: 'a', endpoints: [makeEndpoint({ name: 'e', hostPort: 0 })], healthCheck: check }),
      makeContainer({ name: 'b' }),
      makeContainer({ name: 'c', endpoints: [makeEndpoint({ name: 'e', hostPort: 0 })], healthCheck: check }),
    ],
  });
  const launched = h.deploy(pod);
  const [a, , c] = launched;
  h.status(a.taskId, 'TASK_RUNNING', { healthy: true });
  t.match(h.scheduler.healthChecks(a.instanceId), [{ containerName: 'a', alive: true }, { containerName: 'c', alive: undefined }]);
  h.status(c.taskId, 'TASK_RUNNING', { healthy: false });
  t.match(h.scheduler.healthChecks(a.instanceId), [{ containerName: 'a', alive: true }, { containerName: 'c', alive: false, consecutiveFailures: 1 }]);
  // c was never healthy: its first failure changes no liveness, so only a's first success is published.
  t.same(h.events('health_status_changed_event').map((e) => [e.appId, e.alive]), [[pod.id, true]]);
  h.status(c.taskId, 'TASK_RUNNING', { healthy: true });
  h.status(c.taskId, 'TASK_RUNNING', { healthy: false });
  t.same(h.events('health_status_changed_event').map((e) => [e.appId, e.alive]), [[pod.id, true], [pod.id, true], [pod.id, false]]);
});

t.test('agent verdicts: health_status_changed_event only when liveness changes, never for a first failure (Marathon HealthCheckActor)', async (t) => {
  const cases: { name: string; verdicts: boolean[]; alive: boolean[] }[] = [
    { name: 'first verdict unhealthy', verdicts: [false], alive: [] },
    { name: 'unhealthy, then healthy', verdicts: [false, true], alive: [true] },
    { name: 'unhealthy, healthy, unhealthy', verdicts: [false, true, false], alive: [true, false] },
    { name: 'healthy, unhealthy', verdicts: [true, false], alive: [true, false] },
  ];
  for (const protocol of AGENT_RUN) {
    for (const c of cases) {
      const h = new Harness();
      const check = makeHealthCheck({ protocol, gracePeriodMs: 0, ...(protocol === 'COMMAND' ? { command: 'true' } : {}) });
      const [l] = h.deploy(makeApp({ hostPorts: [0], healthChecks: [check] }));
      for (const healthy of c.verdicts) {
        h.advance(1000);
        h.status(l.taskId, 'TASK_RUNNING', { healthy });
      }
      t.same(h.events('health_status_changed_event').map((e) => e.alive), c.alive, `${protocol}, ${c.name}`);
      t.equal(h.events('failed_health_check_event').length, c.verdicts.filter((v) => !v).length, `${protocol}, ${c.name}: failures reported`);
    }
  }
});

t.test('after a restart the last verdicts are results again, without events', async (t) => {
  const h1 = new Harness();
  const [l] = h1.deploy(makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP', gracePeriodMs: 0 })] }), makeOffer());
  h1.status(l.taskId, 'TASK_RUNNING', { healthy: true });
  const h2 = new Harness({ stored: h1.store.load(), startMs: h1.nowMs });
  t.match(h2.scheduler.healthChecks(l.instanceId), [{ alive: true, consecutiveFailures: 0, lastSuccessMs: h1.nowMs }]);
  t.same(h2.events('health_status_changed_event'), []);
});
