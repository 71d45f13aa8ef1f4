import type { Instance } from '../model/instance';
import type { RunSpecState } from './run-spec-state';

/** The core's in-memory state. Maps are filled in input order, so iteration is deterministic. */
export class SchedulerState {
  readonly runSpecs = new Map<string, RunSpecState>();
  readonly instances = new Map<string, Instance>();
  /** Task id → owning instance, for status updates. */
  readonly taskIndex = new Map<string, Instance>();
  /** Tasks of expunged instances, so that a task coming back is recognised as unknown and killed. */
  readonly expungedTasks = new Map<string, { instanceId: string; runSpecId: string }>();
  /** Run specs whose offer demand may have changed since the last revive/suppress sync. */
  readonly demandDirty = new Set<RunSpecState>();
  frameworkId?: string;
}
