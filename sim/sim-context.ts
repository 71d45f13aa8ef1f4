import type { SchedulerInput } from '../src/scheduler/model/inputs';
import type { Random } from '../src/scheduler/ports/random';
import type { SimEvent } from './cluster/sim-event';

/**
 * What the simulated cluster may use of the run it belongs to. The runner owns the one loop
 * (ordered by (dueMs, seq)) and the virtual clock (@sinonjs/fake-timers `createClock()`); the
 * cluster only schedules entries in it and reads the time.
 */
export interface SimContext {
  /** Virtual epoch milliseconds. */
  nowMs(): number;
  /** Post an input to the scheduler core at `dueMs` (absolute virtual time). */
  toCore(dueMs: number, input: SchedulerInput): void;
  /** Schedule a simulator-internal event; returns an id for {@link cancel}. */
  schedule(dueMs: number, event: SimEvent): number;
  cancel(id: number): void;
  /** Seeded streams, one per subsystem, forked from the run's seed (see world.ts). */
  readonly streams: WorldStreams;
  /** Append one record to the canonical JSONL trace. Keep records small and key order fixed. */
  trace(record: Readonly<Record<string, unknown>>): void;
  /**
   * Whether {@link trace} keeps records (default true). When false, callers on hot paths may skip
   * building them: a run with the trace off (bench:sim) builds no record it would throw away.
   */
  readonly tracing?: boolean;
}

/** One independent seeded stream per subsystem, so a new draw in one never shifts another. */
export interface WorldStreams {
  /** Ids the scheduler core draws (instance/task uuids). */
  readonly ids: Random;
  /** Offer timing and order decisions of the simulated master. */
  readonly offers: Random;
  /** Task start-up, crash and shutdown delays. */
  readonly tasks: Random;
  /** Health responder draws (flaky checks, latencies). */
  readonly health: Random;
  /** Fault injection draws (swarm testing). */
  readonly faults: Random;
  /** Workload generation draws (swarm testing). */
  readonly workload: Random;
}
