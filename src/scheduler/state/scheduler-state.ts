import { instanceIdOfTask, safeRunSpecId } from '../kernel/ids';
import type { Group } from '../groups/group';
import { VersionHistory } from '../groups/version-history';
import type { Instance } from '../model/instance';
import type { TimerHandle } from '../instances/instance-effects';
import type { RunSpecState } from './run-spec-state';
import { DirtyInstances } from './dirty-instances';
import { TaskOwners, taskOfInstance } from './task-owners';

/**
 * The core's in-memory state. Maps are filled in input order, so iteration is deterministic.
 *
 * There is no global instance or task index: an instance id starts with its run spec's safe id
 * (`prod_web.instance-…`) and Marathon path segments cannot contain `_`, so the safe id names the
 * run spec unambiguously; a task id contains its instance id. Lookups go run spec → its own index
 * (state/instance-index.ts, whose id entries are made when a look-up first needs them), which saves
 * two million-entry map insertions per million instances on the hot path. A status update's
 * look-up by task id ({@link taskOwner}) goes through that only once per task: its answer is then
 * remembered by task id (state/task-owners.ts).
 */
export class SchedulerState {
  readonly runSpecs = new Map<string, RunSpecState>();
  private readonly bySafeId = new Map<string, RunSpecState>();
  /** Tasks of expunged instances, so that a task coming back is recognised as unknown and killed. */
  readonly expungedTasks = new Map<string, { instanceId: string; runSpecId: string; lastKillMs?: number }>();
  /** Run specs whose offer demand may have changed since the last revive/suppress sync. */
  readonly demandDirty = new Set<RunSpecState>();
  /**
   * Instances created or changed since they were last written (the input's write set, its one
   * owner): written in one store call when the input is done, or earlier right before an ACCEPT
   * (instances/instance-tracker.ts, `flushInstances`), so each is written once per input with
   * every change of the input, the created ones first in creation order.
   */
  readonly dirty = new DirtyInstances();
  /** Run specs whose `lastTaskFailure` changed during the current input: written once each when it is done (instances/record-task-failure.ts). */
  readonly failuresToWrite = new Set<RunSpecState>();
  /** Run specs whose instances changed during the current input (deployments check only those). */
  changed = new Set<string>();
  /**
   * Moves on whenever {@link changed} is emptied or replaced ({@link takeChanged},
   * {@link clearChanged}), so that a run spec whose `changedEpoch` equals it is in `changed` now
   * ({@link noteChanged} skips adding it again). Unique in the process (a module counter), so that
   * no other state's epoch matches.
   */
  private changedEpoch = nextChangedEpoch();
  frameworkId?: string;
  /** The framework roles the driver was last told (it starts subscribed with the default role). */
  frameworkRoles: readonly string[];
  /**
   * The roles in use may have changed (a run spec's role in an accepted change, or the first
   * instance of a role appeared / the last one went): recompute them after this input.
   */
  rolesDirty = true;
  /** How many more instances the current input may create or kill for a delete (SchedulerOptions.instancesPerInput). */
  changeBudget = 0;
  /** Run specs with instances left to create (`toCreate`) or to kill (`toKill`), in the order they were deferred. */
  readonly deferred = new Set<RunSpecState>();
  /** The `continueChanges` timer that goes on with them, while one is armed. */
  deferredTimer: TimerHandle | undefined;
  /** Instances taken out of the state (expunged, or their run spec forgotten): never current again. */
  private readonly removed = new WeakSet<Instance>();
  /** Whether any instance was ever put in {@link removed} (until then every instance is current without a look-up). */
  private anyRemoved = false;
  /**
   * Puts `rs` in {@link changed}, once per epoch: a placement notes its run spec at every placement,
   * and a Set look-up per placement (its key's hash in a string likely out of cache) was 3 % of the
   * 1M match.
   */
  noteChanged(rs: RunSpecState): void {
    if (rs.changedEpoch === this.changedEpoch) return;
    this.changed.add(rs.spec.id);
    rs.changedEpoch = this.changedEpoch;
  }

  /** Hands over {@link changed} and puts `spare` (empty) in its place: a new epoch. */
  takeChanged(spare: Set<string>): Set<string> {
    const taken = this.changed;
    this.changed = spare;
    this.changedEpoch = nextChangedEpoch();
    return taken;
  }

  /** Empties {@link changed}: a new epoch. */
  clearChanged(): void {
    this.changed.clear();
    this.changedEpoch = nextChangedEpoch();
  }

  /** Stored versions of every run spec and of the root (bounded; survives delete and re-create: a pod's for good, an app's while a kept root version holds it). */
  readonly history = new VersionHistory();
  /** {@link taskOwner}'s answers by task id (a cache that checks each answer: see TaskOwners). */
  private readonly owners = new TaskOwners((inst) => this.isCurrent(inst));

  constructor(public root: Group, defaultRole: string) {
    this.history.recordRoot(root);
    this.frameworkRoles = [defaultRole];
  }

  addRunSpec(rs: RunSpecState): void {
    this.runSpecs.set(rs.spec.id, rs);
    this.bySafeId.set(safeRunSpecId(rs.spec.id), rs);
  }

  /** Takes a run spec out of the state; the instances it still holds are no longer current ({@link isCurrent}). */
  forgetRunSpec(rs: RunSpecState): void {
    this.runSpecs.delete(rs.spec.id);
    this.bySafeId.delete(safeRunSpecId(rs.spec.id));
    for (const inst of rs.instances.values()) {
      this.removed.add(inst);
      this.owners.forget(inst);
    }
    this.anyRemoved = true;
  }

  /** Takes an instance out of its run spec's map (expunged): it is no longer current ({@link isCurrent}). */
  removeInstance(rs: RunSpecState, inst: Instance): void {
    rs.instances.delete(inst.instanceId);
    this.removed.add(inst);
    this.owners.forget(inst);
    this.anyRemoved = true;
  }

  /** The run spec state an instance id belongs to. */
  runSpecOfInstance(instanceId: string): RunSpecState | undefined {
    const marker = instanceId.indexOf('.instance-');
    return marker < 0 ? undefined : this.bySafeId.get(instanceId.slice(0, marker));
  }

  /** A known instance by id. */
  instance(instanceId: string): Instance | undefined {
    return this.runSpecOfInstance(instanceId)?.instances.get(instanceId);
  }

  /**
   * Whether this instance object is the one the state knows under its id (not expunged, not
   * replaced by a re-created run spec): `instance(inst.instanceId) === inst` for every instance
   * the state has held. An instance object enters the state as it is made (`scheduleNewInstances`,
   * recovery's `adopt`: the only writers of a run spec's `instances` index) and leaves it only through
   * {@link removeInstance} or {@link forgetRunSpec}, which remember it in a weak set; so this is
   * one look-up in that set (small: the instances removed and still referenced) rather than one
   * among a run spec's instances (hot: every changed instance, every input; at a million instances
   * that map look-up was a cache miss or two, ~7 % of bench:match's CPU). Until an instance has
   * been removed, not even that.
   */
  isCurrent(inst: Instance): boolean {
    return !this.anyRemoved || !this.removed.has(inst);
  }

  /**
   * The instance whose current incarnation owns this task id (undefined for stale or unknown
   * tasks). Every status update asks: the answer for a task id is remembered, and a task id
   * looked up again is answered from that (checked: state/task-owners.ts) without cutting the
   * instance id out of the task id and hashing it.
   */
  taskOwner(taskId: string): Instance | undefined {
    const known = this.owners.get(taskId);
    if (known !== undefined) return known;
    const inst = this.instance(instanceIdOfTask(taskId));
    if (inst === undefined || taskOfInstance(inst, taskId) === undefined) return undefined;
    this.owners.remember(taskId, inst);
    return inst;
  }

  /** How many task ids {@link taskOwner} remembers (for the tests of its bound). */
  get rememberedTaskOwners(): number {
    return this.owners.size;
  }

  /** Every launched task of every instance, in creation order. */
  *launchedTasks(): IterableIterator<{ taskId: string; agentId?: string }> {
    for (const rs of this.runSpecs.values()) {
      for (const inst of rs.instances.values()) {
        for (const task of inst.tasks) yield { taskId: task.taskId, agentId: inst.agent?.agentId };
      }
    }
  }
}

// The epochs of every state in the process, in turn (see SchedulerState.changedEpoch): a value
// never reached by any observable output, only by the check that skips a Set add that would
// change nothing.
let changedEpochs = 0;

function nextChangedEpoch(): number {
  changedEpochs = changedEpochs === Number.MAX_SAFE_INTEGER ? 0 : changedEpochs + 1;
  return changedEpochs;
}
