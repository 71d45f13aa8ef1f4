import type { Condition } from '../../src/scheduler/model/condition';

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

/** The outcome of a scenario run. */
export interface RunResult {
  readonly name: string;
  readonly seed: number;
  /** True when every expectation held and no invariant was violated. */
  readonly passed: boolean;
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
  readonly virtualMs: number;
  readonly loopSteps: number;
}
