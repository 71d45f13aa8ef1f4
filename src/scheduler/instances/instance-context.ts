import type { EventBus } from '../events/event-bus';
import type { HealthTracker } from '../health/health-tracker';
import type { SchedulerPorts } from '../ports/scheduler-ports';
import type { SchedulerOptions } from '../scheduler-options';
import type { SchedulerState } from '../state/scheduler-state';

/**
 * What the instance tracker's modules (instances/, kill/, health/, readiness/, unreachable/,
 * state/, events/) work with: the ports, the options, the state, the event bus and the health
 * results. The lowest of the core's contexts: it names nothing of the launch queue, the deployment
 * executor or the commands, so no module of this layer can reach up to them (issue 12, R3;
 * docs/architecture.md, "The core's layers").
 */
export interface InstanceContext extends SchedulerPorts {
  readonly options: SchedulerOptions;
  readonly state: SchedulerState;
  readonly bus: EventBus;
  readonly health: HealthTracker;
}
