import type { ClusterDriver } from './cluster-driver';
import type { Clock } from './clock';
import type { Prober } from './prober';
import type { Random } from './random';
import type { Store } from './store';
import type { Timers } from './timers';

/** The ports a scheduler is built with: everything the core reads from or does to the world. */
export interface SchedulerPorts {
  readonly clock: Clock;
  readonly random: Random;
  readonly timers: Timers;
  readonly driver: ClusterDriver;
  readonly store: Store;
  readonly prober: Prober;
}
