import type { Decision } from '../../src/runtime/decision-reader';
import type { Condition } from '../../src/scheduler/model/condition';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';

/** One evaluated `expect` step. */
export interface ExpectOutcome {
  readonly atMs: number;
  readonly line?: number;
  readonly passed: boolean;
  readonly lines: readonly string[];
}

/** One executed timeline step, for the summary table. */
export interface StepRecord {
  readonly atMs: number;
  readonly text: string;
}

/** A decision of the run at `atMs` (virtual ms since the start). */
export interface TimedDecision {
  readonly atMs: number;
  readonly decision: Decision;
}

/** A run spec with instances left waiting for an offer at the end, and why offers did not fit. */
export interface UnplacedRunSpec {
  readonly runSpecId: string;
  readonly count: number;
  /** The NoOfferMatchReason counts the core recorded over the run. */
  readonly rejections: Partial<Record<NoMatchReason, number>>;
  /** The last offers the core could not use for it, oldest first. */
  readonly lastUnused: readonly { readonly agentId: string; readonly reason: NoMatchReason }[];
  /** Launches are delayed (backoff) until then (virtual ms since the start). */
  readonly backoffUntilMs?: number;
}

/**
 * Where a run was stopped before its duration had passed: from outside (Ctrl-C of `--cluster
 * sim`), or by its bound on loop steps ({@link StoppedRun.maxLoopSteps}).
 */
export interface StoppedRun {
  /** The virtual time reached (ms since the start). */
  readonly atMs: number;
  /** The scenario's duration (virtual ms). */
  readonly durationMs: number;
  /** Expectations of the timeline never checked: due after the stop. */
  readonly unchecked: number;
  /** Set when the run's bound on loop steps stopped it (`RunOptions.maxLoopSteps`): the bound. */
  readonly maxLoopSteps?: number;
}

/** The outcome of a scenario run. */
export interface RunResult {
  readonly name: string;
  readonly seed: number;
  /**
   * True when every expectation held and no invariant was violated; false too for a run
   * {@link stopped} before its duration, which has no verdict (see `verdictText`).
   */
  readonly passed: boolean;
  /** Set when the run was stopped before its duration: the expectations after it were never checked. */
  readonly stopped?: StoppedRun;
  /** SHA-256 of the trace; empty when the run kept no trace (`trace: false`). */
  readonly traceHash: string;
  readonly traceLines: number;
  /** The JSONL trace, when it was asked for. */
  readonly traceText: string;
  readonly steps: readonly StepRecord[];
  readonly expectations: readonly ExpectOutcome[];
  /** Invariant violations (the run stops at the first step that has any). */
  readonly violations: readonly string[];
  readonly violationAtMs?: number;
  /** Final instance counts by condition, per run spec. */
  readonly finalCounts: readonly { readonly runSpecId: string; readonly target: number; readonly counts: Partial<Record<Condition, number>> }[];
  readonly eventCounts: Readonly<Record<string, number>>;
  /** The core's decisions in order (empty when the run read none: `decisions: false`). */
  readonly decisions: readonly TimedDecision[];
  /** Decisions read after the first `RUN_DECISIONS_KEPT_MAX` (run-recorder.ts), not in {@link decisions}. */
  readonly decisionsNotKept?: number;
  /** Run specs with instances still waiting for an offer at the end. */
  readonly unplaced: readonly UnplacedRunSpec[];
  readonly virtualMs: number;
  readonly loopSteps: number;
}
