import type { EventBus } from './events/event-bus';
import type { ClusterDriver } from './ports/cluster-driver';
import type { Clock } from './ports/clock';
import type { Prober } from './ports/prober';
import type { Random } from './ports/random';
import type { Store } from './ports/store';
import type { Timers } from './ports/timers';
import type { SchedulerOptions } from './scheduler-options';
import type { SchedulerState } from './state/scheduler-state';
import type { HealthTracker } from './health/health-tracker';
import type { OfferDemand } from './launch-queue/offer-demand';

/** The ports a scheduler is built with. */
export interface SchedulerPorts {
  readonly clock: Clock;
  readonly random: Random;
  readonly timers: Timers;
  readonly driver: ClusterDriver;
  readonly store: Store;
  readonly prober: Prober;
}

/** What every module of the core shares: ports, options, state, bus and the stateful helpers. */
export interface CoreContext extends SchedulerPorts {
  readonly options: SchedulerOptions;
  readonly state: SchedulerState;
  readonly bus: EventBus;
  readonly health: HealthTracker;
  readonly demand: OfferDemand;
}
