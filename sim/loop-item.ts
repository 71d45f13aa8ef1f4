import type { SchedulerInput } from '../src/scheduler/model/inputs';
import type { SimEvent } from './cluster/sim-event';

/** An entry of the simulator's one loop: an input for the core, or an event for the simulated cluster. */
export type LoopItem =
  | { readonly to: 'core'; readonly input: SchedulerInput }
  | { readonly to: 'sim'; readonly event: SimEvent };
