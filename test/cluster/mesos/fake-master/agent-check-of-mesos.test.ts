import t from 'tap';
import { healthCheckToMesos } from '../../../../src/cluster/mesos/translate/health-check-to-mesos';
import type { HealthCheckSpec } from '../../../../src/scheduler/model/health-check';
import { makeHealthCheck } from '../../../builders/run-spec-builders';
import { agentCheckOfMesos } from './agent-check-of-mesos';

/** What an agent's executor runs of a check: everything but the definition's own bookkeeping (port index, endpoint, form). */
function executorView(check: HealthCheckSpec): Partial<HealthCheckSpec> {
  const { portIndex: _p, port: _port, endpoint: _e, form: _f, ...rest } = check;
  return rest;
}

const CASES: readonly { readonly name: string; readonly check: HealthCheckSpec; readonly port?: number }[] = [
  { name: 'MESOS_HTTP, kill at the first failure', check: makeHealthCheck({ protocol: 'MESOS_HTTP', path: '/health', maxConsecutiveFailures: 0, gracePeriodMs: 10_000, intervalMs: 5000, timeoutMs: 2000 }), port: 31005 },
  { name: 'MESOS_HTTPS over IPv6', check: makeHealthCheck({ protocol: 'MESOS_HTTPS', path: '/ready', ipProtocol: 'IPv6' }), port: 8443 },
  { name: 'MESOS_TCP with a delay', check: makeHealthCheck({ protocol: 'MESOS_TCP', delayMs: 2500 }), port: 9100 },
  { name: 'COMMAND', check: makeHealthCheck({ protocol: 'COMMAND', command: 'test -f /tmp/ok' }) },
];

for (const { name, check, port } of CASES) {
  t.test(`a health check reads back from TaskInfo as the driver wrote it: ${name}`, async (t) => {
    const wire = healthCheckToMesos(check, port);
    if (wire === undefined) throw new Error('the driver sends this check');
    const back = agentCheckOfMesos(wire);
    if (typeof back === 'string') throw new Error(back);
    t.same(executorView(back.check), executorView(check));
    t.equal(back.port, port);
  });
}

t.test('unset fields take Mesos HealthCheck defaults; a check no executor runs is named', async (t) => {
  const back = agentCheckOfMesos({ type: 'TCP', tcp: { port: 80 } });
  if (typeof back === 'string') throw new Error(back);
  t.match(back.check, { protocol: 'MESOS_TCP', delayMs: 15_000, intervalMs: 10_000, timeoutMs: 20_000, maxConsecutiveFailures: 3, gracePeriodMs: 10_000 });
  t.match(agentCheckOfMesos({ http: { port: 80 } }), /type \(none\)/);
  t.match(agentCheckOfMesos({ type: 'HTTP' }), /without `http`/);
});
