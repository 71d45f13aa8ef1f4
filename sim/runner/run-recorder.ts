import type { Condition } from '../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { InstanceAtEvent } from '../../src/scheduler/model/instance';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';
import { type Scheduler, SweepThreshold } from '../../src/scheduler/index';
import type { Decision, DecisionReader } from '../../src/runtime/decision-reader';
import type { ExpectOutcome, RunResult, StepRecord, TimedDecision } from './run-result';

/**
 * The decisions a run keeps for its summary and report at most: the first ones, in order; those
 * after are counted, and the summary and report say how many (docs/limits.md, "Scenario files").
 * A file within every other bound that kills and relaunches at every step (100,000 instances
 * with failing health checks each second) read about a decision per step, and kept, they grew
 * the heap by hundreds of megabytes per million steps, up to the ten million a run may take.
 */
export const RUN_DECISIONS_KEPT_MAX = 200_000;

/**
 * Collects what a run produced for its summary, its report and its expectations. With a
 * {@link DecisionReader} it also reads the core's events as decisions (the reader asks the core
 * why an instance is killed) and, after each offer batch, which offers the core rejected and why.
 */
export class RunRecorder {
  readonly events: { atMs: number; event: MarathonEvent }[] = [];
  readonly eventCounts: Record<string, number> = {};
  readonly steps: StepRecord[] = [];
  readonly expectations: ExpectOutcome[] = [];
  readonly decisions: TimedDecision[] = [];
  /** Decisions read after the first {@link RUN_DECISIONS_KEPT_MAX}, not kept (counted). */
  decisionsNotKept = 0;
  private readonly decisionListeners: ((decision: TimedDecision) => void)[] = [];
  /** Rejection counts per run spec already reported as decisions (run specs the core no longer holds are swept out). */
  private readonly rejectionsSeen = new Map<string, Partial<Record<NoMatchReason, number>>>();
  /** When {@link rejectionsSeen} is swept next. */
  private readonly rejectionSweeps = new SweepThreshold(REJECTIONS_SWEEP_MIN);
  /** False once the run's result is taken ({@link stopKeeping}): what follows is only told to listeners. */
  private keeping = true;

  /**
   * `keepEvents` (default true): keep every event in {@link events}, which only expectations with
   * event counts read. A run without such an expectation passes false: a day of 10,000 instances
   * emits a million events, and keeping them all made the heap (and every major GC) grow all day.
   * `keepDecisions` (default true): keep every decision in {@link decisions} (the summary's and
   * the report's); false tells them to the listeners only (`--cluster sim` logs them as they come).
   */
  constructor(
    private readonly reader?: DecisionReader,
    private readonly keepEvents = true,
    private readonly keepDecisions = true,
  ) {}

  /**
   * The run's result was taken (finish or stop): from now on nothing more is kept — no event,
   * step or decision (listeners still hear the decisions). A served `--cluster sim` runs on
   * without end after its workload; kept, these lists grew with every command and decision
   * for as long as it ran (the soak trial of 2026-11-30: about 1,100 decisions a churn cycle).
   */
  stopKeeping(): void {
    this.keeping = false;
  }

  /** Records one line of the run's timeline (the summary's `timeline:`), while the run's result is still to come. */
  step(atMs: number, text: string): void {
    if (this.keeping) this.steps.push({ atMs, text });
  }

  onEvent(atMs: number, event: MarathonEvent, instance?: InstanceAtEvent): void {
    if (this.keepEvents && this.keeping) this.events.push({ atMs, event });
    this.eventCounts[event.eventType] = (this.eventCounts[event.eventType] ?? 0) + 1;
    const decision = this.reader?.read(event, instance);
    if (decision !== undefined) this.decided({ atMs, decision });
  }

  /** After each input the core handled: the unreachable instances it forgot without an event. */
  afterInput(atMs: number): void {
    if (this.reader === undefined) return;
    for (const decision of this.reader.sweep()) this.decided({ atMs, decision });
  }

  /** Calls `listener` with every decision from now on. */
  onDecision(listener: (decision: TimedDecision) => void): void {
    this.decisionListeners.push(listener);
  }

  private decided(timed: TimedDecision): void {
    if (this.keepDecisions && this.keeping) {
      if (this.decisions.length < RUN_DECISIONS_KEPT_MAX) this.decisions.push(timed);
      else this.decisionsNotKept++;
    }
    for (const listener of this.decisionListeners) listener(timed);
  }

  /**
   * After an offer batch: for every run spec that still waits for offers, the rejections the core
   * recorded since the last batch (its NoOfferMatchReason counts), as one `rejected` decision.
   */
  afterOffers(scheduler: Scheduler, atMs: number): void {
    if (this.reader === undefined) return;
    for (const entry of scheduler.queue()) {
      const id = entry.runSpec.id;
      const now = entry.stats.byReason();
      const seen = this.rejectionsSeen.get(id) ?? {};
      const fresh = Object.entries(now)
        .map(([reason, n]) => [reason, n - (seen[reason as NoMatchReason] ?? 0)] as const)
        .filter(([, n]) => n > 0);
      this.rejectionsSeen.set(id, now);
      if (fresh.length === 0) continue;
      const decision: Decision = {
        kind: 'rejected', runSpecId: id, reason: fresh.map(([reason]) => reason).join(','),
        text: `offers rejected for ${id} (${entry.scheduled} waiting): ${fresh.map(([reason, n]) => `${reason} ${n}`).join(', ')}`,
      };
      this.decided({ atMs, decision });
    }
    this.sweepRejectionsSeen(scheduler);
  }

  /**
   * Forgets the counts seen of run specs the core no longer holds (deleted: one created again
   * under the id starts with fresh statistics), once the map doubled since the last sweep (at
   * least {@link REJECTIONS_SWEEP_MIN}), so a sweep costs at most as much as the insertions that led to it.
   */
  private sweepRejectionsSeen(scheduler: Scheduler): void {
    if (!this.rejectionSweeps.due(this.rejectionsSeen.size)) return;
    for (const id of this.rejectionsSeen.keys()) if (scheduler.runSpec(id) === undefined) this.rejectionsSeen.delete(id);
    this.rejectionSweeps.swept(this.rejectionsSeen.size);
  }

  /** How many run specs' rejection counts are remembered (tests: the sweep bounds it). */
  get rejectionsRemembered(): number {
    return this.rejectionsSeen.size;
  }
}

/** Instance counts by condition per run spec at the end of the run. */
export function finalCounts(scheduler: Scheduler): RunResult['finalCounts'] {
  return scheduler.runSpecs().map((spec) => ({ runSpecId: spec.id, target: spec.instances, counts: conditionCounts(scheduler.instances(spec.id)) }));
}

/** How many of `instances` are in each condition, in the order the conditions first appear. */
export function conditionCounts(instances: readonly { readonly condition: Condition }[]): Partial<Record<Condition, number>> {
  const counts: Partial<Record<Condition, number>> = {};
  for (const inst of instances) counts[inst.condition] = (counts[inst.condition] ?? 0) + 1;
  return counts;
}

/** `Running 2, Scheduled 1` ({@link conditionCounts}); '' for none. */
export function conditionCountsText(counts: Partial<Record<Condition, number>>): string {
  return Object.entries(counts).map(([condition, n]) => `${condition} ${n}`).join(', ');
}

/**
 * Run specs with instances still waiting for an offer at the end, with the offer rejections the
 * core recorded for each (NoOfferMatchReason counts over the run, the last unused offers) and the
 * backoff deadline (virtual ms since the start) when launches are delayed.
 */
export function finalUnplaced(scheduler: Scheduler, epochMs: number): RunResult['unplaced'] {
  return scheduler.queue().map((entry) => ({
    runSpecId: entry.runSpec.id,
    count: entry.scheduled,
    rejections: entry.stats.byReason(),
    lastUnused: entry.stats.lastUnused().map((o) => ({ agentId: o.offer.agent.agentId, reason: o.reason })),
    ...(entry.backoffUntilMs === undefined ? {} : { backoffUntilMs: entry.backoffUntilMs - epochMs }),
  }));
}

/** Run specs below which the reported rejections are never swept. */
const REJECTIONS_SWEEP_MIN = 64;
