import t from 'tap';
import { apiFor, appBody, call, created, type Json, running } from './apps-kit';

/**
 * Health checks through the REST API as Marathon clients see them. Marathon's wire names of the
 * agent-run protocols are MESOS_HTTP, MESOS_HTTPS and MESOS_TCP (`raml/HealthCheckConversion.scala`);
 * the spec's AGENT_* names are accepted as aliases, and only the MESOS_* names come back.
 */

const cases: readonly { readonly given: string; readonly echoed: string }[] = [
  { given: 'MESOS_HTTP', echoed: 'MESOS_HTTP' },
  { given: 'MESOS_HTTPS', echoed: 'MESOS_HTTPS' },
  { given: 'MESOS_TCP', echoed: 'MESOS_TCP' },
  { given: 'AGENT_HTTP', echoed: 'MESOS_HTTP' },
  { given: 'agent_tcp', echoed: 'MESOS_TCP' },
];

t.test('agent-run protocols are stored and echoed with Marathon\'s MESOS_* names', async (t) => {
  for (const { given, echoed } of cases) {
    const fx = apiFor(t);
    const res = await created(t, fx, appBody({ id: '/web', healthChecks: [{ protocol: given }] }));
    t.match(res.json.healthChecks, [{ protocol: echoed }], `${given}: the 201 body`);
    const got = await call(fx, 'GET', '/v2/apps/web');
    t.match((got.json.app as Json).healthChecks, [{ protocol: echoed }], `${given}: GET`);
    t.match(fx.harness.events('add_health_check_event'), [{ healthCheck: { protocol: echoed } }], `${given}: add_health_check_event`);
    const spec = fx.deps.scheduler.runSpec('/web');
    t.equal(spec?.kind === 'app' ? spec.healthChecks[0].protocol : undefined, echoed, `${given}: the model`);
  }
});

t.test('agent-run results appear in tasks[].healthCheckResults (Marathon 1.11 shape, with instanceId), as tasksHealthy counts them', async (t) => {
  for (const check of [{ protocol: 'MESOS_HTTP', gracePeriodSeconds: 0 }, { protocol: 'COMMAND', command: { value: 'true' }, gracePeriodSeconds: 0 }]) {
    const fx = apiFor(t);
    const [l] = await running(t, fx, appBody({ id: '/web', healthChecks: [check] }));
    fx.harness.status(l.taskId, 'TASK_RUNNING', { healthy: true });
    const app = (await call(fx, 'GET', '/v2/apps/web')).json.app as Json;
    t.equal(app.tasksHealthy, 1, `${check.protocol}: counted healthy`);
    const entry = { instanceId: l.instanceId, alive: true, consecutiveFailures: 0, firstSuccess: '2026-01-01T00:00:00.000Z', lastSuccess: '2026-01-01T00:00:00.000Z' };
    t.strictSame((app.tasks as Json[])[0].healthCheckResults, [entry], `${check.protocol}: /v2/apps/web`);
    const tasks = (await call(fx, 'GET', '/v2/tasks')).json.tasks as Json[];
    t.strictSame(tasks[0].healthCheckResults, [entry], `${check.protocol}: /v2/tasks`);
    t.match(fx.harness.events('health_status_changed_event'), [{ appId: '/web', instanceId: l.instanceId, alive: true }], `${check.protocol}: the event`);
  }
});
