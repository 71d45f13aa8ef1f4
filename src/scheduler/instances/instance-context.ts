import type { EventSink } from '../events/event-bus';
import type { HealthTracker } from '../health/health-tracker';
import type { Clock } from '../ports/clock';
import type { Random } from '../ports/random';
import type { SchedulerPorts } from '../ports/scheduler-ports';
import type { SchedulerOptions } from '../scheduler-options';
import type { SchedulerState } from '../state/scheduler-state';
import type { InstanceEffects } from './instance-effects';

/**
 * What the instance tracker's modules (instances/, kill/, health/, readiness/, unreachable/,
 * state/, events/) work with: the clock and randomness (reads), the options, the state, the health
 * results, and the input's effects. No port that changes the world and no event bus: the tracker
 * appends what is to happen to `effects`, and the facade's applier carries it out
 * (instances/effect-applier.ts; issue 12: operations in, effects out). The lowest of the core's
 * contexts: it names nothing of the launch queue, the deployment executor or the commands, so no
 * module of this layer can reach up to them (issue 12, R3; docs/architecture.md, "The core's
 * layers").
 */
export interface InstanceContext {
  readonly clock: Clock;
  readonly random: Random;
  readonly options: SchedulerOptions;
  readonly state: SchedulerState;
  readonly health: HealthTracker;
  readonly effects: InstanceEffects;
}

/**
 * The ports and the event bus as the layers above the tracker (launch queue and matcher,
 * deployments, commands, the facade) call them: through the applier, so that a direct call first
 * carries out the tracker's pending effects and everything leaves the core in the order it was
 * decided (instances/effect-applier.ts).
 */
export interface CorePorts extends SchedulerPorts {
  readonly bus: EventSink;
}
