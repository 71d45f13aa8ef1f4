import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { RunSpec } from '../../src/scheduler/model/run-spec';

/**
 * An independent model of launch backoff, fed only with what an observer sees: instance events
 * and the runner's own commands. A failure is an instance that went terminal and was put back in
 * the queue (Scheduled again) within the same step, unless the runner itself killed it without
 * scale or wipe, or it is resident and is queued again under another version of its run spec
 * (replaced in place by a new config: the core kills it and relaunches it on its reservation, as
 * Marathon does, and a replacement is no launch failure, even when its task of an older config
 * failed before the kill ended it). Not for other run specs:
 * their instances killed as unhealthy are queued again under the current version too, and those
 * are failures (skipping one would shorten the oracle's chain of delays: false alarms). Delay: initial,
 * then ×factor per further failure (rounded), capped; a new config version or resetDelay starts
 * over. A launch before the deadline is a violation.
 */
export class BackoffOracle {
  private readonly lastCondition = new Map<string, string>();
  /** The run spec version of each instance's last event. */
  private readonly lastVersion = new Map<string, string>();
  private readonly terminalThisStep = new Set<string>();
  private readonly userKilled = new Set<string>();
  /** Instances the scheduler sent a kill for (the driver's KILL) since they were last queued. */
  private readonly schedulerKilled = new Set<string>();
  private readonly delays = new Map<string, { delayMs: number; deadlineMs: number; config: string }>();

  /** The runner kills these instances on request (relaunch without backoff). */
  markUserKilled(instanceIds: readonly string[]): void {
    for (const id of instanceIds) this.userKilled.add(id);
  }

  /** The scheduler sent a kill for a task of this instance (what the cluster sees: a KILL call). */
  markSchedulerKill(instanceId: string): void {
    this.schedulerKilled.add(instanceId);
  }

  reset(runSpecId: string): void {
    this.delays.delete(runSpecId);
  }

  /** A scheduler failover: the new core starts every backoff over (Marathon keeps launch delays in memory only). */
  forgetDelays(): void {
    this.delays.clear();
  }

  onEvent(event: MarathonEvent, nowMs: number, specOf: (id: string) => RunSpec | undefined): void {
    if (event.eventType !== 'instance_changed_event') return;
    const previous = this.lastCondition.get(event.instanceId);
    const previousVersion = this.lastVersion.get(event.instanceId);
    this.lastCondition.set(event.instanceId, event.condition);
    this.lastVersion.set(event.instanceId, event.runSpecVersion);
    if (TERMINAL.has(event.condition)) {
      this.terminalThisStep.add(event.instanceId);
      return;
    }
    // Only the transition terminal → Scheduled is a relaunch; a goal change re-announces the same
    // condition (instance_changed_event is sent for goal changes too) and is no second failure.
    if (event.condition !== 'Scheduled' || previous === undefined || !TERMINAL.has(previous) || !this.terminalThisStep.has(event.instanceId)) return;
    const killed = this.schedulerKilled.delete(event.instanceId);
    if (this.userKilled.delete(event.instanceId)) return;
    const spec = specOf(event.runSpecId);
    if (spec === undefined) return;
    // Replaced in place: the scheduler killed it while it ran an older config than the run spec's
    // current one, and it is queued under the new one — its task reported killed, or failed in the
    // kill's grace (swarm seed 20992). One that failed on its own (seed 204), or that the scheduler
    // killed as unhealthy under the current config, queued under a scale's newer version (seed
    // 21672), is a failure.
    const olderConfig = previousVersion !== undefined && previousVersion < spec.versionInfo.lastConfigChangeAt;
    if (spec.resident && killed && olderConfig) return;
    this.fail(spec, nowMs);
  }

  /** Entries held for instances and run specs (the checker sweeps when it doubled). */
  get size(): number {
    return this.lastCondition.size + this.lastVersion.size + this.userKilled.size + this.schedulerKilled.size + this.delays.size;
  }

  /**
   * Forgets the instances and run specs the core no longer holds: an expunged instance never
   * comes back (a relaunch keeps its id while the core holds it), and a run spec created again
   * starts its backoff over with a new config version anyway.
   */
  forgetGone(gone: GoneCheck): void {
    for (const id of this.lastCondition.keys()) if (gone.instance(id)) this.lastCondition.delete(id);
    for (const id of this.lastVersion.keys()) if (gone.instance(id)) this.lastVersion.delete(id);
    for (const id of this.userKilled) if (gone.instance(id)) this.userKilled.delete(id);
    for (const id of this.schedulerKilled) if (gone.instance(id)) this.schedulerKilled.delete(id);
    for (const id of this.delays.keys()) if (gone.runSpec(id)) this.delays.delete(id);
  }

  /** Call at the end of every loop step. */
  endStep(): void {
    this.terminalThisStep.clear();
  }

  /** A violation message when `runSpecId` launches at `nowMs` before its deadline. */
  checkLaunch(spec: RunSpec, nowMs: number): string | undefined {
    const d = this.delays.get(spec.id);
    if (d === undefined || d.config !== spec.versionInfo.lastConfigChangeAt || nowMs >= d.deadlineMs) return undefined;
    return `launch of ${spec.id} at ${nowMs} ms before its backoff deadline ${d.deadlineMs} ms (delay ${d.delayMs} ms)`;
  }

  private fail(spec: RunSpec, nowMs: number): void {
    const config = spec.versionInfo.lastConfigChangeAt;
    const prev = this.delays.get(spec.id);
    const delayMs = prev === undefined || prev.config !== config
      ? spec.backoff.initialMs
      : Math.min(spec.backoff.maxMs, Math.round(prev.delayMs * spec.backoff.factor));
    this.delays.set(spec.id, { delayMs, deadlineMs: nowMs + delayMs, config });
  }
}

/** Whether the leading core no longer holds an instance or a run spec (the oracles' sweeps). */
export interface GoneCheck {
  instance(instanceId: string): boolean;
  runSpec(runSpecId: string): boolean;
}

const TERMINAL = new Set(['Killed', 'Finished', 'Failed', 'Error', 'Gone', 'Dropped', 'Unknown']);
