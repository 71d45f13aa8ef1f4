import type { MarathonEvent } from '../model/events';
import type { TimerInput } from '../model/inputs';
import type { Instance, InstanceAtEvent } from '../model/instance';
import type { TaskFailure } from '../model/task-failure';
import type { ProbeRequest } from '../ports/prober';

/*
 * Effects out (issue 12, problem 3): the instance tracker's operations and the status handlers
 * never call a port nor emit an event themselves. They decide, and append what is to happen to the
 * world — a kill, an event, a timer, a probe, a store write — as data, in the order they decided
 * it, to the input's {@link InstanceEffects}. The facade's one applier (instances/effect-applier.ts)
 * carries them out, in that order (docs/architecture.md, "The instance tracker").
 */

/**
 * A timer the tracker set: the port's id once the applier has scheduled it. Kept in the state
 * where the timer id was kept (backoff, health and readiness checks, deferred changes), so that a
 * later operation can clear it; clearing one that was never scheduled does nothing.
 */
export interface TimerHandle {
  /** The Timers port's id; undefined until the applier schedules it. */
  id: number | undefined;
}

/** What the instance tracker asks of the world (see {@link InstanceEffects} for each). */
export type InstanceEffect =
  | { readonly kind: 'event'; readonly event: MarathonEvent; readonly instance?: InstanceAtEvent }
  | { readonly kind: 'newInstances'; readonly instances: readonly Instance[]; readonly runSpecVersion: string; readonly nowMs: number }
  | { readonly kind: 'kill'; readonly taskId: string; readonly agentId: string | undefined; readonly gracePeriodMs: number }
  | { readonly kind: 'acknowledge'; readonly agentId: string; readonly taskId: string; readonly uuid: string }
  | { readonly kind: 'setTimer'; readonly dueMs: number; readonly input: TimerInput; readonly handle: TimerHandle }
  | { readonly kind: 'clearTimer'; readonly handle: TimerHandle }
  | { readonly kind: 'probe'; readonly request: ProbeRequest }
  | { readonly kind: 'saveInstances'; readonly instances: readonly Instance[] }
  | { readonly kind: 'deleteInstance'; readonly instanceId: string }
  | { readonly kind: 'deleteRunSpec'; readonly runSpecId: string }
  | { readonly kind: 'saveTaskFailure'; readonly failure: TaskFailure }
  | { readonly kind: 'deleteTaskFailure'; readonly runSpecId: string };

const NO_EFFECTS: readonly InstanceEffect[] = Object.freeze([]);

/**
 * The effects the tracker decided and the applier has not carried out yet, in order. The tracker's
 * modules only append (one method per kind); {@link take} hands the list to the applier.
 * `eventsWanted` tells whether anyone listens to events, so that an operation can skip building
 * events nobody reads (a scale-up to 100,000 instances).
 */
export class InstanceEffects {
  private pending: InstanceEffect[] = [];

  constructor(private readonly wanted: () => boolean = () => true) {}

  /** Whether an `event` effect would reach a listener. */
  get eventsWanted(): boolean {
    return this.wanted();
  }

  /** Effects appended and not yet taken. */
  get size(): number {
    return this.pending.length;
  }

  /** Announce `event` on the core's event bus (`instance`: its instance as decided, for an instance change). */
  event(event: MarathonEvent, instance?: InstanceAtEvent): void {
    // One object shape for every event effect (the key is there when `instance` is undefined too).
    this.pending.push({ kind: 'event', event, instance });
  }

  /**
   * Announce instances just created, Scheduled at `runSpecVersion`, at `nowMs`: one
   * `instance_changed_event` each, in the order given, as if each had been an {@link event} with
   * its goal Running and no kill reason (`scheduledInstanceEvent`). One effect for the batch instead
   * of one per instance: a scale-up creates up to `instancesPerInput` instances per input, a
   * million in bench:match's queue build, and each effect record was one more young object per
   * instance. `instances` must not change afterwards (the caller hands over a list of its own).
   */
  newInstances(instances: readonly Instance[], runSpecVersion: string, nowMs: number): void {
    this.pending.push({ kind: 'newInstances', instances, runSpecVersion, nowMs });
  }

  /** Kill a task (ClusterDriver.kill). */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    this.pending.push({ kind: 'kill', taskId, agentId, gracePeriodMs });
  }

  /** Acknowledge a status update that carried a uuid (ClusterDriver.acknowledge). */
  acknowledge(agentId: string, taskId: string, uuid: string): void {
    this.pending.push({ kind: 'acknowledge', agentId, taskId, uuid });
  }

  /** Post `input` back to the core at `dueMs`; returns the handle to clear it with. */
  setTimer(dueMs: number, input: TimerInput): TimerHandle {
    const handle: TimerHandle = { id: undefined };
    this.pending.push({ kind: 'setTimer', dueMs, input, handle });
    return handle;
  }

  /** Cancel a timer set earlier (nothing when `handle` is undefined). */
  clearTimer(handle: TimerHandle | undefined): void {
    if (handle !== undefined) this.pending.push({ kind: 'clearTimer', handle });
  }

  /** Run a scheduler-side probe (Prober.probe). */
  probe(request: ProbeRequest): void {
    this.pending.push({ kind: 'probe', request });
  }

  /** Write these instances (Store.saveInstances; the tracker's one write per input, `flushInstances`). */
  saveInstances(instances: readonly Instance[]): void {
    this.pending.push({ kind: 'saveInstances', instances });
  }

  /** Delete an expunged instance's record (Store.deleteInstance). */
  deleteInstance(instanceId: string): void {
    this.pending.push({ kind: 'deleteInstance', instanceId });
  }

  /** Delete a run spec that is no longer run (Store.deleteRunSpec). */
  deleteRunSpec(runSpecId: string): void {
    this.pending.push({ kind: 'deleteRunSpec', runSpecId });
  }

  /** Write a run spec's last task failure (Store.saveTaskFailure; at most once per run spec per input, `flushTaskFailures`). */
  saveTaskFailure(failure: TaskFailure): void {
    this.pending.push({ kind: 'saveTaskFailure', failure });
  }

  /** Delete a deleted run spec's last task failure (Store.deleteTaskFailure). */
  deleteTaskFailure(runSpecId: string): void {
    this.pending.push({ kind: 'deleteTaskFailure', runSpecId });
  }

  /** Hands over every effect appended so far, in order, and starts a new list. */
  take(): readonly InstanceEffect[] {
    if (this.pending.length === 0) return NO_EFFECTS;
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
