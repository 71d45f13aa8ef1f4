import type { Condition } from '../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { Scheduler } from '../../src/scheduler/scheduler';
import type { ExpectOutcome, RunResult, StepRecord } from './run-result';

/** Collects what a run produced for its summary and its expectations. */
export class RunRecorder {
  readonly events: { atMs: number; event: MarathonEvent }[] = [];
  readonly eventCounts: Record<string, number> = {};
  readonly steps: StepRecord[] = [];
  readonly expectations: ExpectOutcome[] = [];

  onEvent(atMs: number, event: MarathonEvent): void {
    this.events.push({ atMs, event });
    this.eventCounts[event.eventType] = (this.eventCounts[event.eventType] ?? 0) + 1;
  }
}

/** Instance counts by condition per run spec at the end of the run. */
export function finalCounts(scheduler: Scheduler): RunResult['finalCounts'] {
  return scheduler.runSpecs().map((spec) => {
    const counts: Partial<Record<Condition, number>> = {};
    for (const inst of scheduler.instances(spec.id)) counts[inst.condition] = (counts[inst.condition] ?? 0) + 1;
    return { runSpecId: spec.id, target: spec.instances, counts };
  });
}
