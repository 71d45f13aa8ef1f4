import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import type { StoredState } from '../../src/scheduler/ports/store';
import type { SchedulerOptions } from '../../src/scheduler/index';
import type { SimTimings } from '../cluster/sim-models';

/** One agent of a fork: who it is and everything it has (used and free), per pool. */
export interface ForkAgent {
  readonly info: AgentInfo;
  /** Capacity per pool (milli-units), as the simulated master registers it. */
  readonly pools: readonly OfferedPool[];
}

/**
 * What a what-if fork starts from (issue 18): a copy of a live core's state at one instant, and
 * the agents it runs on. Plain data, owned by the fork (deep copies): the simulated core recovers
 * from `stored` as after a restart, and every placed instance's tasks are adopted by the simulated
 * agents (`SimCluster.adoptTasks`). Built from a live pacer by `src/whatif/take-fork.ts`.
 */
export interface ForkState {
  /** The live clock at the fork (epoch ms); the fork's virtual time starts there. */
  readonly atMs: number;
  /** The live core's state as a store would hold it: root group, run specs, instances, running deployments. */
  readonly stored: StoredState;
  readonly agents: readonly ForkAgent[];
  /** The live core's options (the fork's core runs with the same). */
  readonly options: Partial<SchedulerOptions>;
  /** How the simulated agents behave (launch and kill delays, offer interval); default the simulator's. */
  readonly timings?: SimTimings;
  /**
   * Seed of the fork's random streams (ids, delays); default 1. A live fork's is its own
   * (take-fork.ts): one the live run drew from would give the fork the live instances' ids.
   */
  readonly seed?: number | string;
}
