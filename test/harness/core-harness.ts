import seedrandom from 'seedrandom';
import { HeapLoop } from '../../src/scheduler/kernel/heap-loop';
import type { Group } from '../../src/scheduler/groups/group';
import type { Instance } from '../../src/scheduler/model/instance';
import type { EventType, MarathonEvent } from '../../src/scheduler/model/events';
import type { Command, CommandResult, SchedulerInput, TaskStatus, TimerInput, TimerKind } from '../../src/scheduler/model/inputs';
import type { TaskLaunch } from '../../src/scheduler/model/launch';
import type { Offer } from '../../src/scheduler/model/offer';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { TaskState } from '../../src/scheduler/model/task-state';
import type { ProbeObservation, ProbeRequest } from '../../src/scheduler/ports/prober';
import type { Random } from '../../src/scheduler/ports/random';
import type { StoredState } from '../../src/scheduler/ports/store';
import type { Timers } from '../../src/scheduler/ports/timers';
import { Scheduler } from '../../src/scheduler/scheduler';
import { countsForFloor } from '../../src/scheduler/instances/instance-tracker';
import type { RunSpecState } from '../../src/scheduler/state/run-spec-state';
import type { SchedulerOptions } from '../../src/scheduler/scheduler-options';
import { makeOffer } from '../builders/cluster-builders';
import { MemoryStore, type StoreWrite } from './memory-store';
import { RecordingDriver, launchedTasks, type CallOf, type DriverCall, type DriverCallType } from './recording-driver';
import { RecordingProber } from './recording-prober';

/** 2026-01-01T00:00:00.000Z: where every harness clock starts unless told otherwise. */
export const START_MS = Date.UTC(2026, 0, 1);

export interface HarnessOptions {
  readonly seed?: string;
  readonly startMs?: number;
  /** Scheduler options over the core's defaults. */
  readonly options?: Partial<SchedulerOptions>;
  /** What the store holds when the core starts (a restart: the core recovers from it). */
  readonly stored?: StoredState;
}

/** Everything that left the core, in the order it happened. */
export type Effect =
  | { readonly kind: 'driver'; readonly atMs: number; readonly call: DriverCall }
  | { readonly kind: 'store'; readonly atMs: number; readonly write: StoreWrite }
  | { readonly kind: 'event'; readonly atMs: number; readonly event: MarathonEvent }
  | { readonly kind: 'probe'; readonly atMs: number; readonly request: ProbeRequest };

export type EventOf<T extends EventType> = Extract<MarathonEvent, { eventType: T }>;

/** Options of the run spec commands. */
export interface CommandOptions {
  /** Override deployment locks (the conflicting deployments are stopped). Left out: the core's default. */
  readonly force?: boolean;
}

/** A live timer the core asked for. */
export interface PendingTimer {
  readonly id: number;
  readonly dueMs: number;
  readonly timer: TimerKind;
}

/**
 * Drives one Scheduler in manual time and records its effects instead of mocking them
 * (Nomad's test Harness): driver calls, store writes, probe requests and bus events all land in
 * arrays, and in one ordered `effects` log. Timers go into the core's own HeapLoop; `advance(ms)`
 * fires the due ones in (dueMs, seq) order through `scheduler.handle`, moving the clock to each
 * entry's due time. Like the real loop, every input is followed by the timers already due.
 */
export class Harness {
  readonly scheduler: Scheduler;
  readonly loop = new HeapLoop<TimerInput>();
  readonly random: Random;
  readonly driver: RecordingDriver;
  readonly prober: RecordingProber;
  readonly store: MemoryStore;
  readonly log: MarathonEvent[] = [];
  readonly effects: Effect[] = [];
  private now: number;
  private readonly live = new Map<number, PendingTimer>();
  private readonly taskAgents = new Map<string, string>();
  private readonly observers: (() => void)[] = [];

  constructor(opts: HarnessOptions = {}) {
    this.now = opts.startMs ?? START_MS;
    const rng = seedrandom(opts.seed ?? 'pacer');
    this.random = { next: () => rng() };
    this.driver = new RecordingDriver((call) => {
      this.effects.push({ kind: 'driver', atMs: this.now, call });
      for (const t of launchedTasks([call])) this.taskAgents.set(t.taskId, t.agentId);
    });
    this.store = new MemoryStore((write) => this.effects.push({ kind: 'store', atMs: this.now, write }));
    if (opts.stored !== undefined) this.store.fill(opts.stored);
    this.prober = new RecordingProber();
    const prober = this.prober;
    const timers: Timers = {
      schedule: (dueMs, input) => {
        const id = this.loop.schedule(dueMs, input);
        this.live.set(id, { id, dueMs, timer: input.timer });
        return id;
      },
      cancel: (id) => {
        this.loop.cancel(id);
        this.live.delete(id);
      },
    };
    this.scheduler = new Scheduler({
      clock: { nowMs: () => this.now },
      random: this.random,
      timers,
      driver: this.driver,
      store: this.store,
      prober: {
        probe: (request) => {
          this.effects.push({ kind: 'probe', atMs: this.now, request });
          prober.probe(request);
        },
      },
    }, opts.options);
    this.scheduler.subscribe((event) => {
      this.log.push(event);
      this.effects.push({ kind: 'event', atMs: this.now, event });
    });
  }

  /** The manual clock, epoch ms. */
  get nowMs(): number {
    return this.now;
  }

  /** Milliseconds since the harness started (START_MS by default). */
  get elapsedMs(): number {
    return this.now - START_MS;
  }

  /** One input, then every timer already due (as the loop would). */
  handle(input: SchedulerInput): CommandResult | undefined {
    const result = this.scheduler.handle(input);
    this.notify();
    this.advance(0);
    return result;
  }

  /**
   * Call `fn` after every input the core handles (commands, cluster inputs, probe results, timers):
   * the moments between inputs, when the core's state is observable from outside.
   */
  observe(fn: () => void): void {
    this.observers.push(fn);
  }

  /** Move the clock by `ms`, firing due timers in (dueMs, seq) order on the way. */
  advance(ms: number): void {
    this.advanceTo(this.now + ms);
  }

  advanceTo(untilMs: number): void {
    for (;;) {
      const entry = this.loop.popDue(untilMs);
      if (entry === undefined) break;
      this.live.delete(entry.seq);
      this.now = Math.max(this.now, entry.dueMs);
      this.scheduler.handle(entry.input);
      this.notify();
    }
    this.now = Math.max(this.now, untilMs);
  }

  /** Live timers, optionally of one kind, in due order. */
  timers(kind?: TimerKind['kind']): PendingTimer[] {
    return [...this.live.values()]
      .filter((t) => kind === undefined || t.timer.kind === kind)
      .sort((a, b) => a.dueMs - b.dueMs || a.id - b.id);
  }

  // ── commands ─────────────────────────────────────────────────────────────

  /**
   * Create or update a run spec (a deployment). Refused with `locked` while a running deployment
   * holds the run spec, unless `force` (which stops that deployment).
   */
  put(spec: RunSpec, opts: CommandOptions = {}): CommandResult {
    return this.command({ type: 'putRunSpec', spec, ...forceOf(opts) });
  }

  /** Delete a run spec; the core defaults `force` to true (Marathon's app DELETE), `force: false` respects locks. */
  delete(runSpecId: string, opts: CommandOptions = {}): CommandResult {
    return this.command({ type: 'deleteRunSpec', runSpecId, ...forceOf(opts) });
  }

  scale(runSpecId: string, instances: number, opts: CommandOptions = {}): CommandResult {
    return this.command({ type: 'scale', runSpecId, instances, ...forceOf(opts) });
  }

  /** Replace the whole root group (the groups API): planned and deployed. */
  deployRoot(root: Group, opts: CommandOptions = {}): CommandResult {
    return this.command({ type: 'deploy', root, ...forceOf(opts) });
  }

  /** DELETE /v2/deployments/{id}: roll back, or with `force` just stop. */
  cancelDeployment(deploymentId: string, opts: CommandOptions = {}): CommandResult {
    return this.command({ type: 'cancelDeployment', deploymentId, ...forceOf(opts) });
  }

  kill(runSpecId: string, instanceIds: readonly string[], opts: { scale?: boolean; wipe?: boolean; force?: boolean } = {}): CommandResult {
    return this.command({ type: 'killInstances', runSpecId, instanceIds, scale: opts.scale ?? false, wipe: opts.wipe ?? false, force: opts.force });
  }

  resetDelay(runSpecId: string): CommandResult {
    return this.command({ type: 'resetDelay', runSpecId });
  }

  private command(cmd: Command): CommandResult {
    return this.handle(cmd) as CommandResult;
  }

  // ── cluster inputs ───────────────────────────────────────────────────────

  /** Offer a batch; returns the tasks launched by this batch's accept calls. */
  offer(...offers: Offer[]): TaskLaunch[] {
    const before = this.driver.calls.length;
    this.handle({ type: 'offers', offers });
    return launchedTasks(this.driver.calls.slice(before));
  }

  /** A status update; `agentId` defaults to the agent the task was launched on. */
  status(taskId: string, state: TaskState, extra: Partial<Omit<TaskStatus, 'taskId' | 'state'>> = {}): void {
    const status: TaskStatus = { taskId, state, agentId: this.taskAgents.get(taskId), ...extra };
    this.handle({ type: 'status', status });
  }

  /** TASK_STAGING → TASK_STARTING → TASK_RUNNING for each task. */
  run(...tasks: (string | TaskLaunch | readonly TaskLaunch[])[]): void {
    for (const id of taskIds(tasks)) {
      this.status(id, 'TASK_STAGING');
      this.status(id, 'TASK_STARTING');
      this.status(id, 'TASK_RUNNING');
    }
  }

  /** Answer a probe request. */
  probe(probeId: number, observation: Omit<ProbeObservation, 'probeId'>): void {
    this.handle({ type: 'probeResult', observation: { probeId, ...observation } });
  }

  /** Answer the most recent probe request sent for an instance (throws when none was sent). */
  probeInstance(instanceId: string, observation: Omit<ProbeObservation, 'probeId'>): void {
    const request = this.prober.last(instanceId);
    if (request === undefined) throw new Error(`no probe was sent for ${instanceId}`);
    this.probe(request.probeId, observation);
  }

  /** Put a run spec, offer one default offer per instance batch and run what launched. */
  deploy(spec: RunSpec, ...offers: Offer[]): TaskLaunch[] {
    this.put(spec);
    const launched = this.offer(...(offers.length > 0 ? offers : [makeOffer()]));
    this.run(launched);
    return launched;
  }

  // ── observations ─────────────────────────────────────────────────────────

  events(): MarathonEvent[];
  events<T extends EventType>(type: T): EventOf<T>[];
  events(type?: EventType): MarathonEvent[] {
    return type === undefined ? [...this.log] : this.log.filter((e) => e.eventType === type);
  }

  calls(): DriverCall[];
  calls<T extends DriverCallType>(type: T): CallOf<T>[];
  calls(type?: DriverCallType): DriverCall[] {
    return type === undefined ? [...this.driver.calls] : this.driver.of(type);
  }

  /** Instances of a run spec, in creation order. */
  instances(runSpecId: string): readonly Instance[] {
    return this.scheduler.instances(runSpecId);
  }

  /** Conditions of a run spec's instances, in creation order. */
  conditions(runSpecId: string): string[] {
    return this.instances(runSpecId).map((i) => i.condition);
  }

  private notify(): void {
    checkFloorCounts(this.scheduler);
    for (const fn of this.observers) fn();
  }

  /** Forget recorded calls, events, probes and effects (state stays). */
  clearRecords(): void {
    this.driver.clear();
    this.prober.clear();
    this.log.length = 0;
    this.effects.length = 0;
    this.store.writes.length = 0;
  }
}

function forceOf(opts: CommandOptions): { force?: boolean } {
  return opts.force === undefined ? {} : { force: opts.force };
}

function taskIds(tasks: readonly (string | TaskLaunch | readonly TaskLaunch[])[]): string[] {
  const out: string[] = [];
  for (const t of tasks) {
    if (typeof t === 'string') out.push(t);
    else if (Array.isArray(t)) for (const l of t as readonly TaskLaunch[]) out.push(l.taskId);
    else out.push((t as TaskLaunch).taskId);
  }
  return out;
}

/** Run specs of at most this many instances are recounted after every input ({@link checkFloorCounts}); bigger ones are left to the simulator's scenarios. */
const FLOOR_RECOUNT_MAX_INSTANCES = 2000;

/**
 * After every input of every test on the harness: each run spec's `floorCounted`, which the
 * instance tracker keeps at each write, is what a pass over its instances counts (a write path
 * that forgot it would move the kill-storm floor's decisions without any test of the floor
 * noticing at once).
 */
function checkFloorCounts(scheduler: Scheduler): void {
  const runSpecs = (scheduler as unknown as { ctx: { state: { runSpecs: Map<string, RunSpecState> } } }).ctx.state.runSpecs;
  for (const rs of runSpecs.values()) {
    if (rs.instances.size > FLOOR_RECOUNT_MAX_INSTANCES) continue;
    let counted = 0;
    for (const inst of rs.instances.values()) if (countsForFloor(inst)) counted++;
    if (counted !== rs.floorCounted) throw new Error(`${rs.spec.id}: floorCounted ${rs.floorCounted}, but ${counted} of its instances count for the floor`);
  }
}
