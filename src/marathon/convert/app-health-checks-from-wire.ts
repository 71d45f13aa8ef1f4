import { isSchedulerRun, type HealthCheckSpec } from '../../scheduler/model/health-check';
import type { AppPortSlot } from '../../scheduler/model/app-ports';
import { healthCheckFromWire } from './health-check-from-wire';
import { childPointer } from './json-pointer';
import type { WireObject } from './wire-object';

/** Message when agent-run and scheduler-run checks are combined (spec 2.5 rule 6). */
export const MIXED_CHECKS_MESSAGE =
  'agent-level (MESOS_HTTP, MESOS_HTTPS, MESOS_TCP, COMMAND) and scheduler-level (HTTP, HTTPS, TCP) health checks cannot be combined';

/** Marathon's message for more than one agent-run check (facts 29). */
export const ONE_AGENT_CHECK_MESSAGE = 'AppDefinition can contain at most one Mesos health check';

/**
 * Converts `app.healthChecks` (absent → none). Besides each check's own rules: agent-run and
 * scheduler-run checks cannot be mixed (reported at `/healthChecks`), and an app has at most one
 * agent-run check (reported at `/`, as Marathon does). `dockerContainer`: see `healthCheckFromWire`.
 */
export function appHealthChecksFromWire(app: WireObject, slots: readonly AppPortSlot[], dockerContainer?: boolean): HealthCheckSpec[] {
  const list = app.array('healthChecks') ?? [];
  const base = app.pathOf('healthChecks');
  const converted = list.map((item, i) => healthCheckFromWire(item, childPointer(base, i), app.sink, slots, dockerContainer));
  const protocols = converted.flatMap((c) => (c.protocol === undefined ? [] : [c.protocol]));
  const agentRun = protocols.filter((p) => !isSchedulerRun(p)).length;
  if (agentRun > 0 && agentRun < protocols.length) app.fail('healthChecks', MIXED_CHECKS_MESSAGE);
  if (agentRun > 1) app.sink.add('', ONE_AGENT_CHECK_MESSAGE);
  return converted.flatMap((c) => (c.spec === undefined ? [] : [c.spec]));
}
