/** A closed interval of virtual milliseconds from which a seeded delay is drawn uniformly. */
export type DelayRange = readonly [number, number];

/**
 * How the tasks of one run spec behave once running.
 * - `runForever`: never exits on its own.
 * - `exitAfter`: exits after a drawn delay with the given terminal state (a crash loop with TASK_FAILED).
 * - `failToStart`: never reaches RUNNING; fails after the drawn delay.
 */
export type TaskModel =
  | { readonly kind: 'runForever' }
  | { readonly kind: 'exitAfter'; readonly afterMs: DelayRange; readonly state: 'TASK_FAILED' | 'TASK_FINISHED' }
  | { readonly kind: 'failToStart'; readonly afterMs: DelayRange };

/**
 * How the health endpoint of one run spec's tasks answers, for scheduler-run probes and agent-run
 * checks alike.
 * - `healthy`: always passes (HTTP `status`, default 200).
 * - `flaky`: fails with probability `p` per check.
 * - `failingFrom`: passes until virtual time `fromMs` (since scenario start), fails after.
 * - `failingDuring`: fails within [fromMs, toMs), passes otherwise.
 * - `slow`: answers after `latencyMs` (beyond the check's timeout it counts as a timeout).
 * - `status`: always answers with this HTTP status (e.g. 500, or 102 to exercise ignoreHttp1xx).
 */
export type HealthModel =
  | { readonly kind: 'healthy' }
  | { readonly kind: 'flaky'; readonly p: number }
  | { readonly kind: 'failingFrom'; readonly fromMs: number }
  | { readonly kind: 'failingDuring'; readonly fromMs: number; readonly toMs: number }
  | { readonly kind: 'slow'; readonly latencyMs: number }
  | { readonly kind: 'status'; readonly status: number };

/** Timing of the simulated master and agents. All values virtual milliseconds. */
export interface SimTimings {
  /** Period of offer cycles. Default 1000. */
  readonly offerIntervalMs: number;
  /** Launch accepted → TASK_STAGING. Default [50, 200]. */
  readonly stagingMs: DelayRange;
  /** TASK_STAGING → TASK_STARTING. Default [100, 1000]. */
  readonly startingMs: DelayRange;
  /** TASK_STARTING → TASK_RUNNING. Default [200, 2000]. */
  readonly runningMs: DelayRange;
  /** SIGTERM → the task exits by itself (may exceed the grace period, then SIGKILL ends it). Default [100, 2000]. */
  readonly shutdownMs: DelayRange;
  /** Partition → the master marks the agent's tasks TASK_UNREACHABLE. Default 75000 (5 pings × 15 s). */
  readonly agentPingTimeoutMs: number;
  /** Latency of a health answer that is not `slow`. Default [1, 20]. */
  readonly probeLatencyMs: DelayRange;
  /**
   * A dead agent (`killAgent`) marked unreachable → removed for good (TASK_GONE, agentLost).
   * Optional; default 0 (removed right after the ping timeout).
   */
  readonly agentRemovalMs?: number;
}

export const DEFAULT_SIM_TIMINGS: SimTimings = {
  offerIntervalMs: 1000,
  stagingMs: [50, 200],
  startingMs: [100, 1000],
  runningMs: [200, 2000],
  shutdownMs: [100, 2000],
  agentPingTimeoutMs: 75_000,
  probeLatencyMs: [1, 20],
};
