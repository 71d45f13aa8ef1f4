import type { AgentInfo } from './agent';
import type { CheckResult } from './checks';
import type { IpAddress } from './ip-address';
import type { Condition } from './condition';
import type { OfferedPool } from './offer';
import type { PersistentVolume } from './reservation';
import type { ScalarResources } from './resources';
import type { TaskState } from './task-state';
import { appTaskId } from '../kernel/ids';
import { assert } from '../kernel/assert';
import { InstanceTarget, type TargetFields } from './instance-target';

/**
 * What the scheduler wants of an instance: keep it running; stop it but keep its record
 * (resident reservations); or decommission it (kill and forget).
 */
export type Goal = 'Running' | 'Stopped' | 'Decommissioned';

/** Why the scheduler killed an instance; decides backoff and events once it is terminal. */
export type KillReason = 'scale-down' | 'user' | 'unhealthy' | 'replaced' | 'deleted' | 'pod-sibling' | 'unknown';

export interface Task {
  readonly taskId: string;
  /** Pod container name; undefined for app tasks. */
  readonly containerName?: string;
  /** Last state reported by the cluster; undefined until the first status update. */
  state?: TaskState;
  condition: Condition;
  readonly hostPorts: readonly number[];
  readonly resources: ScalarResources;
  /** Agent-run health as last reported; undefined when unknown. */
  healthy?: boolean;
  /**
   * The latest result of the task's Mesos check (`checkResult` of the task JSON): set by every
   * status update carrying a check status (none when it shows no result), kept by those without
   * one. Not stored (the store's task record has no such field, stored-instance.ts): after a
   * restart or a fail-over the cluster reports it again — Mesos's reconciliation answers carry the
   * latest check status, and the local cluster's checker, started again on adoption, reports its
   * first result — so no store format change is needed and no record can become unloadable.
   * Replaced whole when it changes (the task JSON's kept text compares it by identity).
   */
  checkResult?: CheckResult;
  readonly launchedAtMs: number;
  startedAtMs?: number;
  lastStatusMs?: number;
  /** Mesos status message of the last update, undefined when it had none (status_update_event.message). */
  message?: string;
  /**
   * The container's IP addresses, from the update that first reported the task running (as
   * Marathon's NetworkInfo.update: they are not expected to change while it runs); undefined
   * when that update gave none.
   */
  ipAddresses?: readonly IpAddress[];
}

/**
 * An instance's fields as plain data: what the store's records, recovery and tests build an
 * {@link Instance} from ({@link Instance.from}) and what its JSON holds ({@link Instance.toJSON}).
 */
export interface InstanceFields {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
  runSpecVersion: string;
  /**
   * `lastConfigChangeAt` of the definition this incarnation runs (or will run): which config
   * generation it belongs to. Deployments compare it, not the version, because a scale-only
   * change moves the version and a rollback moves it backwards.
   */
  configVersion: string;
  /** Launch attempt number; task ids of apps carry it. Bumped on every relaunch. */
  incarnation: number;
  goal: Goal;
  condition: Condition;
  conditionSinceMs: number;
  role: string;
  /** Placement; undefined while Scheduled. */
  agent?: AgentInfo;
  /** What was taken from which pool of the offer; kept for resident run specs (reservations) only. */
  allocation?: readonly OfferedPool[];
  /**
   * The dynamic reservation and persistent volumes of a resident instance, once its RESERVE and
   * CREATE were sent: it relaunches only on this agent, on this reservation (its offered pool has
   * `reservationId` = this instance's id), and is forgotten only after DESTROY + UNRESERVE.
   */
  reservation?: InstanceReservation;
  tasks: Task[];
  /** Instance health: all checks passing. undefined = unknown (null on the wire). */
  healthy?: boolean;
  /** Readiness of this incarnation (apps with a readiness check): true once a check passed. */
  ready?: boolean;
  /**
   * Healthy at least once since it last started (this incarnation): it counts for its app's
   * kill-storm floor while Running (instances/instance-tracker.ts `countsForFloor`). Stored (format 9),
   * so that a core that takes over counts what the one before it counted.
   */
  proven?: boolean;
  /** First time the instance was seen Running in this incarnation. */
  startedAtMs?: number;
  unreachableSinceMs?: number;
  killReason?: KillReason;
  killRequestedAtMs?: number;
}

/** An instance's fields but those its {@link InstanceTarget} holds (what the constructor takes beside the target). */
export type InstanceOwnFields = Omit<InstanceFields, keyof TargetFields>;

/**
 * One scheduled copy of a run spec. An app instance has one task; a pod instance one per container.
 *
 * A class rather than a plain record for one reason: an app instance's Task is made when it is
 * first read, not when the instance is placed. Placing a million instances (bench:match) with a
 * Task, its list and its id each left ~150 bytes per placement for the young-generation GC to
 * copy into the old one: without them the 1M match takes about 30 % less time and 160 MiB less
 * heap (bench/README.md, "2026-11-29 evening: an app's Task made when first read"). {@link launchApp} keeps the launch's facts (the host ports and resources;
 * the incarnation is a field already, and the launch time is {@link conditionSinceMs} until the
 * Task is made) in the instance's own fields, which the instance had from its creation;
 * {@link tasks} builds the Task from them on its first read and keeps it, so every later read,
 * and every write through the instance tracker, sees one Task, as before. The tracker makes the
 * Task ({@link keepTasks}) before it changes the condition's time.
 *
 * The launch's facts are private fields; so is the record of the eight fields most instances
 * never set ({@link InstanceRareFields}: `reservation`, `killReason`, `allocation`, `healthy`,
 * `ready`, `proven`, `unreachableSinceMs`, `killRequestedAtMs`), and so is the {@link InstanceTarget} the
 * instances of one run spec and definition share (`runSpecId`, `kind`, `runSpecVersion`,
 * `configVersion`, `role`); those thirteen are getters (and setters) on the prototype here. An
 * instance's own enumerable properties are {@link InstanceFields}' but `tasks` and those thirteen,
 * and {@link toJSON} gives the plain record with all of them. A copy must name them (`{ ...inst,
 * tasks: inst.tasks }` has no `role`): an object spread copies own properties only; copy through
 * `toJSON()` instead. Every field is set in the constructor, in one order, so all instances share
 * one object shape (a million are made at scale).
 *
 * The fields are declared in the order V8 lays them out, and that order is chosen: first those
 * that a placement out of the launch queue reads or writes (the matcher's look at `reservation`
 * through the rare record, the tracker's `place` and its look at the target, the launch's facts,
 * the `instance_changed_event`), then the rest. Without pointer compression (Node's default
 * build) an instance is 120 bytes (200 before the rare fields moved apart, 2026-12-01; 160 before
 * the shared target, 2026-12-02), two cache lines where it starts at one; so a placement, which
 * touches each of a million instances once, long after it was made, misses fewer lines
 * (bench/README.md, "2026-11-30: an instance's placed fields first"), and a big scale-up keeps 80
 * bytes less per instance (bench/README.md, "2026-12-02 15:40").
 *
 * Only the instance tracker (instances/instance-tracker.ts) writes an instance's fields or calls
 * {@link launchApp}, {@link launchAppAt} or {@link keepTasks} (the `pacer/instance-writes` lint rule).
 */
export class Instance {
  /** Launch attempt number; task ids of apps carry it. Bumped on every relaunch. */
  incarnation: number;
  /** Placement; undefined while Scheduled. */
  agent: AgentInfo | undefined;
  condition: Condition;
  conditionSinceMs: number;
  goal: Goal;
  /** The fields most instances never set ({@link InstanceRareFields}), made by the first write of one. */
  #rare: InstanceRareFields | undefined;
  /** What it runs: run spec, kind, version, config generation, role ({@link InstanceTarget}, shared). */
  #target: InstanceTarget;
  /** The tasks once made; undefined while an app's launched task is still only its facts below. */
  #tasks: Task[] | undefined;
  /** The facts of an app's task not made yet ({@link launchApp}); meaningless while `#tasks` is set. */
  #hostPorts: readonly number[];
  #resources: ScalarResources | undefined;
  readonly instanceId: string;
  startedAtMs: number | undefined;

  /**
   * An instance of these fields running `target` (its run spec, kind, version, config generation
   * and role: the instances a scale-up creates share one). {@link from} makes one of a whole
   * plain record.
   */
  constructor(f: InstanceOwnFields, target: InstanceTarget) {
    this.incarnation = f.incarnation;
    this.agent = f.agent;
    this.condition = f.condition;
    this.conditionSinceMs = f.conditionSinceMs;
    this.goal = f.goal;
    this.#rare = InstanceRareFields.of(f);
    this.#target = target;
    this.#tasks = f.tasks;
    this.#hostPorts = NO_PORTS;
    this.#resources = undefined;
    this.instanceId = f.instanceId;
    this.startedAtMs = f.startedAtMs;
  }

  /**
   * The shared {@link InstanceTarget} itself, for an identity check: the instance tracker's
   * placement compares it with the one it last found right for the run spec's definition, and
   * then reads none of its fields (at a million placements each read of it was a cache miss).
   */
  get sharedTarget(): InstanceTarget {
    return this.#target;
  }

  /** The run spec's id (a path). */
  get runSpecId(): string {
    return this.#target.runSpecId;
  }

  get kind(): 'app' | 'pod' {
    return this.#target.kind;
  }

  /** The version of the run spec's definition this incarnation runs (or will run). */
  get runSpecVersion(): string {
    return this.#target.runSpecVersion;
  }

  set runSpecVersion(value: string) {
    const target = this.#target;
    if (value !== target.runSpecVersion) this.#target = target.with(value, target.configVersion, target.role);
  }

  /** See {@link InstanceFields.configVersion}. */
  get configVersion(): string {
    return this.#target.configVersion;
  }

  set configVersion(value: string) {
    const target = this.#target;
    if (value !== target.configVersion) this.#target = target.with(target.runSpecVersion, value, target.role);
  }

  /** The role its resources are (or will be) taken from. */
  get role(): string {
    return this.#target.role;
  }

  set role(value: string) {
    const target = this.#target;
    if (value !== target.role) this.#target = target.with(target.runSpecVersion, target.configVersion, value);
  }

  /** See {@link InstanceFields.reservation}. */
  get reservation(): InstanceReservation | undefined {
    return this.#rare?.reservation;
  }

  set reservation(value: InstanceReservation | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('reservation', value);
  }

  /** See {@link InstanceFields.killReason}. */
  get killReason(): KillReason | undefined {
    return this.#rare?.killReason;
  }

  set killReason(value: KillReason | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('killReason', value);
  }

  /** See {@link InstanceFields.allocation}. */
  get allocation(): readonly OfferedPool[] | undefined {
    return this.#rare?.allocation;
  }

  set allocation(value: readonly OfferedPool[] | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('allocation', value);
  }

  /** See {@link InstanceFields.healthy}. */
  get healthy(): boolean | undefined {
    return this.#rare?.healthy;
  }

  set healthy(value: boolean | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('healthy', value);
  }

  /** See {@link InstanceFields.ready}. */
  get ready(): boolean | undefined {
    return this.#rare?.ready;
  }

  set ready(value: boolean | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('ready', value);
  }

  /** See {@link InstanceFields.proven}. */
  get proven(): boolean | undefined {
    return this.#rare?.proven;
  }

  set proven(value: boolean | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('proven', value);
  }

  /** See {@link InstanceFields.unreachableSinceMs}. */
  get unreachableSinceMs(): number | undefined {
    return this.#rare?.unreachableSinceMs;
  }

  set unreachableSinceMs(value: number | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('unreachableSinceMs', value);
  }

  /** See {@link InstanceFields.killRequestedAtMs}. */
  get killRequestedAtMs(): number | undefined {
    return this.#rare?.killRequestedAtMs;
  }

  set killRequestedAtMs(value: number | undefined) {
    if (value !== undefined || this.#rare !== undefined) Instance.#rareOf(this).put('killRequestedAtMs', value);
  }

  // Static, as the private methods below: an instance private method would give every instance a brand field.
  static #rareOf(inst: Instance): InstanceRareFields {
    return (inst.#rare ??= new InstanceRareFields());
  }

  /** An instance of these fields (the store's records, recovery, tests). */
  static from(f: InstanceFields): Instance {
    return new Instance(f, InstanceTarget.of(f));
  }

  /**
   * The instance's tasks: an app's launched task is made on the first read (from the facts
   * {@link launchApp} kept) and the same Task is returned from then on.
   */
  get tasks(): Task[] {
    return this.#tasks ?? Instance.#keep(this);
  }

  /**
   * The tasks as {@link tasks} gives them, for a reader that only copies them (the store's
   * record, the JSON): an app's task not made yet is made for this read and not kept, so that
   * writing a placed instance to the store does not make the instance keep a Task.
   */
  peekTasks(): readonly Task[] {
    return this.#tasks ?? Instance.#appTasks(this, this.conditionSinceMs);
  }

  /** Replaces the tasks (the instance tracker: a pod's launch, a placement cleared). */
  set tasks(tasks: Task[]) {
    this.#tasks = tasks;
  }

  /**
   * The app instance was launched as incarnation {@link incarnation} at {@link conditionSinceMs}
   * (both set before), its one task with these host ports and resources: the Task, with the id
   * {@link appTaskId} gives and launched at that time, is made when {@link tasks} is first read,
   * or by {@link keepTasks} before the condition's time changes. (No time of its own: a second
   * double field would be one more boxed number per instance to write, in another cache line.)
   */
  launchApp(hostPorts: readonly number[], resources: ScalarResources): void {
    this.#tasks = undefined;
    // Stores of what is usually there already are skipped: no write barrier into an old instance.
    if (this.#hostPorts !== hostPorts) this.#hostPorts = hostPorts;
    if (this.#resources !== resources) this.#resources = resources;
  }

  /**
   * As {@link launchApp}, launched at `launchedAtMs`, and its Task made and kept now: for a launch
   * whose condition's time may not change with it (the tracker's relaunch of an instance that is
   * not Scheduled).
   */
  launchAppAt(hostPorts: readonly number[], resources: ScalarResources, launchedAtMs: number): void {
    this.launchApp(hostPorts, resources);
    this.#tasks = Instance.#appTasks(this, launchedAtMs);
  }

  /** Makes and keeps the app task not made yet (the tracker, before {@link conditionSinceMs} changes). */
  keepTasks(): void {
    if (this.#tasks === undefined) this.#tasks = Instance.#appTasks(this, this.conditionSinceMs);
  }

  /** The plain record: every field as {@link InstanceFields} has it, its tasks included. */
  toJSON(): InstanceFields {
    return {
      instanceId: this.instanceId, runSpecId: this.runSpecId, kind: this.kind, runSpecVersion: this.runSpecVersion,
      configVersion: this.configVersion, incarnation: this.incarnation, goal: this.goal, condition: this.condition,
      conditionSinceMs: this.conditionSinceMs, role: this.role, agent: this.agent, allocation: this.allocation,
      reservation: this.reservation, tasks: this.peekTasks() as Task[], healthy: this.healthy, ready: this.ready, proven: this.proven, startedAtMs: this.startedAtMs,
      unreachableSinceMs: this.unreachableSinceMs, killReason: this.killReason, killRequestedAtMs: this.killRequestedAtMs,
    };
  }

  // Static, not instance, private methods: an instance private method gives every instance a
  // brand field to check, one more store per instance created.
  static #keep(inst: Instance): Task[] {
    const tasks = Instance.#appTasks(inst, inst.conditionSinceMs);
    inst.#tasks = tasks;
    return tasks;
  }

  /** The app task {@link launchApp} described, launched at `launchedAtMs`, made now. */
  static #appTasks(inst: Instance, launchedAtMs: number): Task[] {
    const resources = inst.#resources;
    if (resources === undefined) assert(false, `instance ${inst.instanceId} has neither tasks nor a launched app task`);
    return [newTask(appTaskId(inst.instanceId, inst.incarnation), undefined, inst.#hostPorts, resources, launchedAtMs)];
  }
}

const NO_PORTS: readonly number[] = [];

/**
 * The eight fields of an instance that most instances never set: a kill's reason and time, the
 * reservation and allocation of a resident instance, health, readiness and whether it was ever
 * healthy in its incarnation (apps with checks), the time it became unreachable. Kept apart, made
 * at the first write of one of them, so that the million Scheduled instances of a big scale-up
 * are 64 bytes (eight pointers) smaller each, with the one pointer here. The 1M queue build of bench:match keeps ~280 MB, and on a machine
 * where a first touch of a page is slow that memory is most of its time (bench/README.md,
 * "2026-12-01"). Every field is set in the constructor, in one order (one shape).
 */
class InstanceRareFields {
  reservation: InstanceReservation | undefined;
  killReason: KillReason | undefined;
  allocation: readonly OfferedPool[] | undefined;
  healthy: boolean | undefined;
  ready: boolean | undefined;
  proven: boolean | undefined;
  unreachableSinceMs: number | undefined;
  killRequestedAtMs: number | undefined;

  constructor(f: Partial<Pick<InstanceFields, RareField>> = {}) {
    this.reservation = f.reservation;
    this.killReason = f.killReason;
    this.allocation = f.allocation;
    this.healthy = f.healthy;
    this.ready = f.ready;
    this.proven = f.proven;
    this.unreachableSinceMs = f.unreachableSinceMs;
    this.killRequestedAtMs = f.killRequestedAtMs;
  }

  /** The rare fields `f` sets, or undefined when it sets none of them. */
  static of(f: Pick<InstanceFields, RareField>): InstanceRareFields | undefined {
    if (f.reservation === undefined && f.killReason === undefined && f.allocation === undefined && f.healthy === undefined && f.ready === undefined
      && f.proven === undefined && f.unreachableSinceMs === undefined && f.killRequestedAtMs === undefined) return undefined;
    return new InstanceRareFields(f);
  }

  /** Sets one field (for the instance's setters, which the instance tracker calls). */
  put<K extends RareField>(field: K, value: InstanceRareFields[K]): void {
    (this as InstanceRareFields)[field] = value;
  }
}

type RareField = 'reservation' | 'killReason' | 'allocation' | 'healthy' | 'ready' | 'proven' | 'unreachableSinceMs' | 'killRequestedAtMs';

/** A task just launched (no status yet, Provisioned). Every field set, in one order: all tasks share one object shape. */
export function newTask(taskId: string, containerName: string | undefined, hostPorts: readonly number[], resources: ScalarResources, nowMs: number): Task {
  return {
    taskId,
    containerName,
    state: undefined,
    condition: 'Provisioned',
    hostPorts,
    resources,
    healthy: undefined,
    launchedAtMs: nowMs,
    startedAtMs: undefined,
    lastStatusMs: undefined,
    message: undefined,
    ipAddresses: undefined,
  };
}

/** Where a resident instance's resources are reserved, and its volumes (see `Instance.reservation`). */
export interface InstanceReservation {
  readonly agentId: string;
  readonly role: string;
  readonly volumes: readonly PersistentVolume[];
  /**
   * Set from the first launch's RESERVE until something shows the reservation exists (a status
   * from the agent, or the reservation in an offer). Never stored: a recovered reservation counts
   * as made. A first launch that ends without either (dropped, refused by the master) clears the
   * reservation, so the instance is placed afresh instead of waiting for a reservation that may
   * never have been made (on-status.ts).
   */
  readonly unconfirmed?: true;
}

/**
 * An instance's goal and kill reason as they were when the core decided an event about it. The
 * core delivers it with each `instance_changed_event` (EventListener's second argument): the
 * tracker's effects are carried out after the operation that decided them (issue 12, effects
 * out), by which time the instance may have changed again or be gone, so a listener that wants to
 * know why (the decision log, src/runtime/decision-reader.ts) reads it here, not from the live
 * instance.
 */
export interface InstanceAtEvent {
  readonly goal: Goal;
  readonly killReason: KillReason | undefined;
}
