import type { Instance, Task } from '../model/instance';
import { SweepThreshold } from '../kernel/sweep-threshold';

/**
 * The instances that owned task ids when they were last looked up, by task id: the fast path of
 * `SchedulerState.taskOwner`, which answers every status update (a reconciliation answers for
 * every task, twice every 10 minutes).
 *
 * Its key is the task id string the update brings. V8 computes a string's hash once and keeps it
 * on the string, so a look-up by a string that was hashed before (the sim's, and every update
 * whose task id the master kept from the launch) hashes nothing; the look-up it replaces cut the
 * instance id and the run spec's part out of the task id and hashed both fresh slices, on every
 * update (14 % of bench:sim's day, 2026-11-29). Each update's own string is hashed once at most.
 *
 * It is a cache, never the truth: an entry is answered only while its instance is current and
 * still has a task of that id ({@link owns}), so a relaunch (new task ids), an expunge or a
 * forgotten run spec can never be answered from it, whoever made the change and whether or not
 * it was told. Entries are made by look-ups only (none per created or placed instance: a
 * scale-up of a million instances makes none, see InstanceIndex), one per task that reported.
 * Stale ones (an old incarnation's task, never reported again) are dropped when looked up, when
 * their instance is taken out of the state ({@link forget}), and by a sweep before the map
 * outgrows twice what the last sweep kept (the tasks then current; kernel/sweep-threshold.ts):
 * it holds at most max({@link SWEEP_MIN_ENTRIES}, 2 × that) entries (docs/limits.md), and each
 * sweep is paid for by at least half as many insertions as it visits.
 */
export class TaskOwners {
  private readonly byTaskId = new Map<string, Instance>();
  /** When the next insertion sweeps first. */
  private readonly sweeps = new SweepThreshold(SWEEP_MIN_ENTRIES);

  /** `isCurrent`: whether the state still holds this instance object (SchedulerState.isCurrent). */
  constructor(private readonly isCurrent: (inst: Instance) => boolean) {}

  /** How many task ids are remembered (stale ones included, until dropped). */
  get size(): number {
    return this.byTaskId.size;
  }

  /** The remembered owner of `taskId` if it still owns it; otherwise undefined (and a stale entry is dropped). */
  get(taskId: string): Instance | undefined {
    const inst = this.byTaskId.get(taskId);
    if (inst === undefined) return undefined;
    if (this.owns(inst, taskId)) return inst;
    this.byTaskId.delete(taskId);
    return undefined;
  }

  /** Remembers that `inst` owns `taskId` (found by the slow look-up). */
  remember(taskId: string, inst: Instance): void {
    if (this.sweeps.due(this.byTaskId.size)) this.sweep();
    this.byTaskId.set(taskId, inst);
  }

  /** Drops the entries of an instance's current tasks (it is being taken out of the state). */
  forget(inst: Instance): void {
    if (this.byTaskId.size === 0) return;
    // Read only: an instance taken out of the state does not make and keep a task for this.
    const tasks = inst.peekTasks();
    for (let i = 0; i < tasks.length; i++) {
      const taskId = (tasks[i] as Task).taskId;
      if (this.byTaskId.get(taskId) === inst) this.byTaskId.delete(taskId);
    }
  }

  private owns(inst: Instance, taskId: string): boolean {
    return this.isCurrent(inst) && taskOfInstance(inst, taskId) !== undefined;
  }

  /** Drops every stale entry (insertion order kept: deterministic), then allows twice what is left. */
  private sweep(): void {
    for (const [taskId, inst] of this.byTaskId) if (!this.owns(inst, taskId)) this.byTaskId.delete(taskId);
    this.sweeps.swept(this.byTaskId.size);
  }
}

/** The instance's task of this id (a loop, no closure: it runs for every status update). */
export function taskOfInstance(inst: Instance, taskId: string): Task | undefined {
  const tasks = inst.tasks;
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i] as Task;
    if (task.taskId === taskId) return task;
  }
  return undefined;
}

/** Entries below which {@link TaskOwners} never sweeps. */
export const SWEEP_MIN_ENTRIES = 1024;
