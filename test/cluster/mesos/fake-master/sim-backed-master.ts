import type { AgentAttribute } from '../../../../src/scheduler/model/agent';
import type { CheckStatus } from '../../../../src/scheduler/model/checks';
import type { SchedulerInput, TaskStatus as CoreTaskStatus } from '../../../../src/scheduler/model/inputs';
import type { OfferOperation as CoreOperation, TaskLaunch } from '../../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../../src/scheduler/model/offer';
import type { PersistentVolume } from '../../../../src/scheduler/model/reservation';
import type { PortRange } from '../../../../src/scheduler/model/resources';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import { instanceIdOfTask } from '../../../../src/scheduler/kernel/ids';
import type {
  Attribute, Call, CheckStatusInfo, Event, ExecutorInfo, Offer as MesosOffer, OfferOperation, Resource, TaskInfo, TaskStatus as MesosTaskStatus, TaskStatusReason,
} from '../../../../src/cluster/mesos/codec/mesos-model';
import { nanosToMs } from '../../../../src/cluster/mesos/translate/nanos-to-ms';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { reservationLabels } from '../../../../src/cluster/mesos/translate/reservation-labels';
import { reservationRole } from '../../../../src/cluster/mesos/translate/reservation-role';
import { SIM_FRAMEWORK_ID, SimCluster, type SimClusterOptions } from '../../../../sim/cluster/sim-cluster';
import type { SimAgentSpec } from '../../../../sim/cluster/sim-agent-spec';
import type { SimEvent } from '../../../../sim/cluster/sim-event';
import type { WorldStreams } from '../../../../sim/sim-context';
import { refuseMsOfFilters } from '../../../../src/master/refuse-filter';
import { agentCheckOfMesos } from './agent-check-of-mesos';
import { checkOfMesos } from './check-of-mesos';
import { FakeMaster } from './fake-master';
import { makeTaskLaunch } from '../../../builders/launch-builders';

/**
 * The virtual world a {@link SimBackedMaster} lives in: the caller owns the clock and the one
 * ordered loop, exactly as the simulator's runner does (sim/sim-context.ts).
 */
export interface MasterWorld {
  /** Virtual epoch milliseconds. */
  nowMs(): number;
  /** The simulated cluster has something for the framework at `dueMs`: hand it to {@link SimBackedMaster.deliver} then. */
  toFramework(dueMs: number, input: SchedulerInput): void;
  /** Schedule one of the cluster's own events: hand it to `master.cluster.onEvent` at `dueMs`. */
  schedule(dueMs: number, event: SimEvent): number;
  cancel(id: number): void;
  readonly streams: WorldStreams;
}

/** How the master reads what the wire does not carry back. */
export interface SimBackedMasterOptions extends SimClusterOptions {
  /** The role of a task launched on unreserved resources (the scheduler's default role). */
  readonly defaultRole: string;
  /**
   * The run spec a launched task belongs to. The simulated executor never reads the definition
   * (only the run spec id, for task and health models); `TaskLaunch.spec` just has to be filled.
   */
  readonly runSpecOf: (runSpecId: string) => RunSpec | undefined;
}

/** A task status the master wrote, and the subscription (its `Mesos-Stream-Id`) it was written on. */
export interface SentStatus {
  readonly streamId: string;
  readonly status: MesosTaskStatus;
}

/** RECONCILE of a task id with this prefix is a barrier marker, consumed by the master. */
export const BARRIER_PREFIX = 'barrier-';

/**
 * A fake Mesos master whose allocator, agents and executors are the simulator's {@link SimCluster}
 * (same offer cycles, refuse filters, revive/suppress, launch and kill timings), behind the real
 * wire of {@link FakeMaster} on 127.0.0.1. So one scenario can run against the simulated cluster
 * directly and against the Mesos driver, and the two runs can be compared (issue 6).
 *
 * Direction cluster → framework: every input the simulated cluster posts (offers, status updates,
 * rescinds, agent losses) is queued in the caller's world with `toFramework`; {@link deliver} then
 * writes it as a Mesos event (OFFERS with the agent's id, hostname, attributes, fault domain and
 * resources; UPDATE with the uuid bytes for reliable updates; RESCIND; FAILURE), as a real master
 * reports agent faults (§7.4): an agent marked unreachable gets `unreachable_time` on its tasks'
 * TASK_UNREACHABLE and a FAILURE ({@link onClusterEvent}); the model's removal of a dead agent is
 * reported as an operator marking it gone, TASK_GONE_BY_OPERATOR without FAILURE (`asMasterReportsIt`).
 * Direction framework → cluster: {@link processCalls} reads the calls the fake master recorded,
 * in arrival order, and applies them to the cluster (ACCEPT of LAUNCH, LAUNCH_GROUP, RESERVE,
 * CREATE, DESTROY and UNRESERVE operations, DECLINE, KILL, ACKNOWLEDGE, RECONCILE, REVIVE,
 * SUPPRESS, UPDATE_FRAMEWORK). RECONCILE of `barrier-<n>` is not forwarded: it records the
 * barrier, telling the caller that every call sent before it arrived.
 *
 * Reservations: the master model keeps a resident instance's dynamic reservation and persistent
 * volumes (src/master); they are offered back as a real master offers them to a framework without
 * RESERVATION_REFINEMENT: pre-refinement `role` + `reservation` with the labels the framework put
 * on them (`marathon_framework_id`, `marathon_task_id`), each volume a disk resource with
 * `disk.persistence` and `disk.volume`. The operations read back are in {@link operationLog}.
 *
 * Agent-run health checks: a task's `health_check` is read back from the wire alone
 * ({@link agentCheckOfMesos}) and run by the simulated executor, whose results go out as Mesos
 * executors send them (§7.5): UPDATE TASK_RUNNING with `healthy` and
 * REASON_TASK_HEALTH_CHECK_STATUS_UPDATED, and TASK_KILLED with `healthy: false` after a kill for
 * failing checks. A check no executor could run is recorded in {@link problems}.
 */
export class SimBackedMaster {
  /** Barrier markers seen, in order. */
  readonly barriers: string[] = [];
  /** Calls the master could not translate (a test asserts there are none). */
  readonly problems: string[] = [];
  /** Events written that the driver turns into one input for the core each. */
  inputsSent = 0;
  /** The agent of every FAILURE written (an agent marked unreachable), in order. */
  readonly lostAgents: string[] = [];
  /**
   * Every task status written in an UPDATE, in order, as written, with the `Mesos-Stream-Id` of
   * the subscription it was written on: a status said while a scheduler's connection was closing
   * (before the fake master processed its close) is on that connection, not on the next one.
   */
  readonly statusesSent: SentStatus[] = [];
  /** Every operation of every ACCEPT applied, in order, as `TYPE` or `TYPE <reservation id>` (RESERVE, CREATE, DESTROY, UNRESERVE). */
  readonly operationLog: string[] = [];
  private processed = 0;
  private subscribes = 0;
  /** The framework's subscription is open: false from {@link frameworkDisconnected} to its next SUBSCRIBE. */
  private frameworkConnected = true;
  /** Violations of the simulated cluster already copied into {@link problems}. */
  private violationsSeen = 0;

  private constructor(
    readonly fake: FakeMaster,
    readonly cluster: SimCluster,
    private readonly world: MasterWorld,
    private readonly options: SimBackedMasterOptions,
  ) {}

  /** Starts the fake master on 127.0.0.1 with the scenario's agents registered (not offered until `cluster.start()`). */
  static async start(world: MasterWorld, agents: readonly SimAgentSpec[], options: SimBackedMasterOptions): Promise<SimBackedMaster> {
    const fake = await FakeMaster.start();
    // Heartbeats are not simulated: a long interval keeps the driver's watchdog quiet for a test's length.
    fake.behaviour.heartbeatIntervalSeconds = 3600;
    // The framework id the simulated master registers, so the cluster checks a re-SUBSCRIBE's id.
    fake.behaviour.newFrameworkId = () => SIM_FRAMEWORK_ID;
    const cluster = new SimCluster({
      nowMs: () => world.nowMs(),
      toCore: (dueMs, input) => world.toFramework(dueMs, input),
      schedule: (dueMs, event) => world.schedule(dueMs, event),
      cancel: (id) => world.cancel(id),
      streams: world.streams,
      trace: () => undefined,
    }, agents, options);
    return new SimBackedMaster(fake, cluster, world, options);
  }

  get url(): string {
    return this.fake.url;
  }

  /**
   * Hands one of the cluster's own events to it. When it is the ping timeout that marks an agent
   * unreachable, the master also tells the framework the agent is lost, as a real master does
   * (master.cpp `_markUnreachable` → `__removeSlave`: TASK_UNREACHABLE for each task, its offers
   * rescinded, then `sendSlaveLost`, a FAILURE naming the agent, §3.8, §7.4): queued after the
   * TASK_UNREACHABLE updates the cluster queued for this instant.
   */
  onClusterEvent(event: SimEvent): void {
    this.cluster.onEvent(event);
    if (event.kind !== 'agentUnreachable' || this.cluster.agentStatus(event.agentId)?.phase !== 'unreachable') return;
    // A disconnected framework is told nothing (master.cpp `Framework::send` drops the message).
    if (this.frameworkConnected) this.world.toFramework(this.world.nowMs(), { type: 'agentLost', agentId: event.agentId });
  }

  /**
   * The framework's subscription closed (its scheduler died): as a real master does when the
   * connection of an HTTP framework closes (master.cpp `exited` → `_exited`, §1.8), the framework
   * is deactivated — no offers, outstanding ones discarded, nothing sent to it — and its tasks
   * keep running until it subscribes again with its id (within its failover timeout): the
   * simulated cluster's own `disconnect`, which the simulator's `schedulerFailover` calls.
   */
  frameworkDisconnected(): void {
    this.frameworkConnected = false;
    this.cluster.disconnect();
  }

  /** Writes one input of the simulated cluster as a Mesos event on the open stream. */
  deliver(input: SchedulerInput): void {
    const frameworkId = this.fake.frameworkId ?? '';
    switch (input.type) {
      case 'offers':
        this.emit({ type: 'OFFERS', offers: { offers: input.offers.map((o) => mesosOfferOf(frameworkId, o)) } });
        return;
      case 'status': {
        const status = this.asMasterReportsIt(mesosStatusOf(input.status));
        this.statusesSent.push({ streamId: this.fake.streamId ?? '', status });
        this.emit({ type: 'UPDATE', update: { status } });
        return;
      }
      case 'rescind':
        this.emit({ type: 'RESCIND', rescind: { offerId: { value: input.offerId } } });
        return;
      case 'subscribed':
        // The cluster's answer to a SUBSCRIBE (`failedOver`): the fake master wrote SUBSCRIBED itself.
        return;
      case 'agentLost':
        // The model's removal of a dead agent ends with `agentLost`; a real master has no timed
        // removal of an unreachable agent, and marking one gone sends no FAILURE (master.cpp
        // `markGone` returns before `__removeSlave` for an agent that is not registered). The
        // FAILURE of the marking itself was sent by `onClusterEvent`.
        if (this.cluster.agentStatus(input.agentId)?.phase === 'removed') return;
        this.lostAgents.push(input.agentId);
        this.emit({ type: 'FAILURE', failure: { agentId: { value: input.agentId } } });
        return;
      default:
        this.problems.push(`the simulated cluster posted a ${input.type} input, which has no Mesos event`);
    }
  }

  /** Applies every call received since the last time to the simulated cluster, in arrival order. */
  processCalls(): void {
    const calls = this.fake.calls;
    while (this.processed < calls.length) {
      const received = calls[this.processed++];
      if (received.call.type === 'SUBSCRIBE') {
        if (received.status !== 200) continue;
        // The first subscription registers the framework with the simulated master (as the
        // simulator's runner subscribes its cluster), so a failed-over scheduler can come back.
        if (++this.subscribes === 1) this.cluster.subscribe();
        else if (!this.frameworkConnected) this.failedOver(received.call);
        else this.resubscribed(received.call);
        continue;
      }
      if (received.status >= 300) {
        this.problems.push(`${received.call.type} was answered ${received.status}`);
        continue;
      }
      this.apply(received.call);
    }
    this.copyViolations();
  }

  async close(): Promise<void> {
    await this.fake.close();
  }

  /**
   * A status of the master model as a real master writes it (§7.4, master.cpp):
   * - TASK_UNREACHABLE from the master (no uuid) carries `unreachable_time`, when its agent was
   *   marked unreachable (`__removeSlave` sets it on each update; reconciliation answers too, §7.2):
   *   the master model's `unreachableSinceMs`, which {@link mesosStatusOf} writes; one without it is a problem;
   * - the model's removal of a dead, unreachable agent reports its tasks TASK_GONE
   *   (REASON_AGENT_REMOVED). A real master never removes an unreachable agent by itself with an
   *   update (the registry forgets it after `--registry_max_agent_age`, silently); the one way its
   *   tasks are reported gone is an operator marking the agent gone (`markGone`):
   *   TASK_GONE_BY_OPERATOR, REASON_AGENT_REMOVED_BY_OPERATOR. So that is what is sent. Both are
   *   the condition Gone to the core; the agreement test names the difference;
   * - for the same reason, an explicit reconciliation answer about a task the master does not know
   *   on such a removed agent is TASK_GONE_BY_OPERATOR (REASON_RECONCILIATION), as a real master
   *   answers for an agent marked gone (§7.2, master.cpp `reconcile`), not the model's TASK_UNKNOWN
   *   (what a real master answers once its registry has forgotten the agent, or for an agent it
   *   never knew). Implicit reconciliation answers only tasks the master knows, so it never asks.
   * Messages stay the model's (mostly none), where a real master writes free text ("health check
   * timed out" on TASK_UNREACHABLE, "Unreachable agent re-reregistered" when it comes back).
   */
  private asMasterReportsIt(status: MesosTaskStatus): MesosTaskStatus {
    if (status.source !== 'SOURCE_MASTER') return status;
    const agentId = status.agentId?.value;
    if (status.state === 'TASK_UNREACHABLE' && status.unreachableTime === undefined) {
      this.problems.push(`TASK_UNREACHABLE of ${status.taskId.value} on ${agentId ?? '?'} without the time its agent was marked unreachable`);
      return status;
    }
    if (status.state === 'TASK_GONE' && status.reason === 'REASON_AGENT_REMOVED' && agentId !== undefined
      && this.cluster.agentStatus(agentId)?.phase === 'removed') {
      return { ...status, state: 'TASK_GONE_BY_OPERATOR', reason: 'REASON_AGENT_REMOVED_BY_OPERATOR' };
    }
    if (status.state === 'TASK_UNKNOWN' && status.reason === 'REASON_RECONCILIATION' && agentId !== undefined
      && this.cluster.agentStatus(agentId)?.phase === 'removed') {
      return { ...status, state: 'TASK_GONE_BY_OPERATOR' };
    }
    return status;
  }

  private emit(event: Event): void {
    this.fake.send(event);
    this.inputsSent++;
  }

  private apply(call: Call): void {
    const c = this.cluster;
    switch (call.type) {
      case 'ACCEPT':
        this.accept(call);
        return;
      case 'DECLINE':
        c.decline((call.decline?.offerIds ?? []).map((o) => o.value), refuseMsOfFilters(call.decline?.filters?.refuseSeconds));
        return;
      case 'KILL': {
        const graceNs = call.kill?.killPolicy?.gracePeriod?.nanoseconds;
        // §7.6: no kill policy on the call = the task's own (3 s default).
        c.kill(call.kill?.taskId.value ?? '', call.kill?.agentId?.value, graceNs === undefined ? 3000 : nanosToMs(graceNs));
        return;
      }
      case 'ACKNOWLEDGE': {
        const ack = call.acknowledge;
        if (ack !== undefined) c.acknowledge(ack.agentId.value, ack.taskId.value, new TextDecoder().decode(ack.uuid));
        return;
      }
      case 'RECONCILE':
        this.reconcile(call);
        return;
      case 'REVIVE':
        c.revive(call.revive?.roles ?? []);
        return;
      case 'SUPPRESS':
        c.suppress(call.suppress?.roles ?? []);
        return;
      case 'UPDATE_FRAMEWORK':
        c.updateFrameworkRoles(call.updateFramework?.frameworkInfo.roles ?? []);
        return;
      default:
        this.problems.push(`unexpected ${call.type} call`);
    }
  }

  /**
   * A framework subscribing again (a restarted scheduler, §1.8) states its roles and which of
   * them are suppressed afresh, as a real master takes them from SUBSCRIBE: the others are revived.
   * The first subscription changes nothing (the cluster starts with the framework's roles).
   *
   * Its old connection still open, this is a failover all the same: a real master fails over every
   * SUBSCRIBE of a framework it knows, connected or not (master.cpp `_subscribe`: "Always failover
   * the old framework connection", MESOS-4712), then broadcasts the framework to its agents
   * (`sendFrameworkUpdates`), which resend their pending unacknowledged updates at once (slave.cpp
   * `updateFramework` → `taskStatusUpdateManager->resume()`): the simulated cluster's `subscribe`
   * (its id checked as in {@link failedOver}).
   */
  private resubscribed(call: Call): void {
    this.cluster.subscribe(call.subscribe?.frameworkInfo.id?.value);
    const roles = call.subscribe?.frameworkInfo.roles ?? [];
    const suppressed = call.subscribe?.suppressedRoles ?? [];
    this.cluster.updateFrameworkRoles(roles);
    const revived = roles.filter((r) => !suppressed.includes(r));
    if (revived.length > 0) this.cluster.revive(revived);
    if (suppressed.length > 0) this.cluster.suppress(suppressed);
  }

  /**
   * A new scheduler subscribes with the framework id after the old one's connection closed
   * (§1.8, master.cpp `failoverFramework`): the framework is active again with the tasks it kept,
   * the agents resend their unacknowledged updates (the simulated cluster's `subscribe`, whose
   * check of the id is the master's: another id would be a new framework, its tasks orphaned —
   * recorded in {@link problems}), and the SUBSCRIBE's suppressed roles stay suppressed.
   */
  private failedOver(call: Call): void {
    this.frameworkConnected = true;
    this.cluster.subscribe(call.subscribe?.frameworkInfo.id?.value ?? '(none)');
    this.cluster.updateFrameworkRoles(call.subscribe?.frameworkInfo.roles ?? []);
    const suppressed = call.subscribe?.suppressedRoles ?? [];
    if (suppressed.length > 0) this.cluster.suppress(suppressed);
  }

  /** The simulated cluster's violations (a refused subscription, an operation it cannot apply) as problems, once each. */
  private copyViolations(): void {
    while (this.violationsSeen < this.cluster.violations.length) this.problems.push(this.cluster.violations[this.violationsSeen++]);
  }

  private reconcile(call: Call): void {
    const tasks = call.reconcile?.tasks ?? [];
    const barrier = tasks.find((t) => t.taskId.value.startsWith(BARRIER_PREFIX));
    if (barrier !== undefined) {
      this.barriers.push(barrier.taskId.value);
      return;
    }
    this.cluster.reconcile(tasks.map((t) => (t.agentId === undefined ? { taskId: t.taskId.value } : { taskId: t.taskId.value, agentId: t.agentId.value })));
  }

  private accept(call: Call): void {
    const accept = call.accept;
    const offerId = accept?.offerIds?.[0]?.value ?? '';
    // An ACCEPT of an offer no longer outstanding (rescinded, or already used) applies nothing:
    // its operations are not logged as applied.
    const applies = this.cluster.outstandingOffers().some((o) => o.offerId === offerId);
    const ops: CoreOperation[] = [];
    for (const op of accept?.operations ?? []) {
      const translated = this.operationOf(offerId, op);
      ops.push(...translated);
      if (applies) for (const t of translated) this.operationLog.push(t.kind === 'launch' || t.kind === 'launchGroup' ? op.type ?? '' : `${op.type ?? ''} ${t.reservationId}`);
    }
    this.cluster.accept(offerId, ops, refuseMsOfFilters(accept?.filters?.refuseSeconds));
  }

  /** One Mesos operation back as the core's operations (a LAUNCH of n tasks is n launches). */
  private operationOf(offerId: string, op: OfferOperation): CoreOperation[] {
    const frameworkId = this.fake.frameworkId;
    const agentId = this.cluster.outstandingOffers().find((o) => o.offerId === offerId)?.agentId ?? '';
    switch (op.type) {
      case 'LAUNCH':
        return (op.launch?.taskInfos ?? []).flatMap((info) => {
          const launch = this.launchOf(info);
          return launch === undefined ? [] : [launch];
        });
      case 'LAUNCH_GROUP': {
        const group = op.launchGroup;
        const launch = group === undefined ? undefined : this.launchGroupOf(group.executor, group.taskGroup.tasks ?? []);
        return launch === undefined ? [] : [launch];
      }
      case 'RESERVE': {
        const pool = reservedPoolOf(op.reserve?.resources ?? [], frameworkId);
        if (pool === undefined) break;
        const { reservedFor: _r, reservationId: _id, volumes: _v, ...unreserved } = pool;
        return [{ kind: 'reserve', agentId, reservationId: pool.reservationId ?? '', role: pool.reservedFor ?? '', allocation: [unreserved] }];
      }
      case 'CREATE':
      case 'DESTROY': {
        const resources = (op.type === 'CREATE' ? op.create?.volumes : op.destroy?.volumes) ?? [];
        const pool = reservedPoolOf(resources, frameworkId);
        if (pool === undefined) break;
        const kind = op.type === 'CREATE' ? 'create' : 'destroy';
        return [{ kind, agentId, reservationId: pool.reservationId ?? '', role: pool.reservedFor ?? '', volumes: volumesOf(resources) }];
      }
      case 'UNRESERVE': {
        const pool = reservedPoolOf(op.unreserve?.resources ?? [], frameworkId);
        if (pool === undefined) break;
        const { volumes: _v, ...allocation } = pool;
        return [{ kind: 'unreserve', agentId, reservationId: pool.reservationId ?? '', role: pool.reservedFor ?? '', allocation: [allocation] }];
      }
      default:
        this.problems.push(`ACCEPT of ${offerId}: ${op.type ?? 'UNKNOWN'} operations are not simulated`);
        return [];
    }
    this.problems.push(`ACCEPT of ${offerId}: ${op.type} whose resources are not one labelled reservation of this framework`);
    return [];
  }

  /** A LAUNCH_GROUP back as the core's launch group: the allocation is what the executor and the tasks hold. */
  private launchGroupOf(executor: ExecutorInfo, infos: readonly TaskInfo[]): CoreOperation | undefined {
    const launches = infos.map((info) => this.launchOf(info));
    const tasks = launches.flatMap((l) => (l?.kind === 'launch' ? [l.task] : []));
    if (tasks.length !== infos.length) return undefined;
    const executorPools = this.poolsOf(executor.resources ?? [], executor.executorId.value);
    const volumes = executorPools.flatMap((p) => p.volumes ?? []);
    const allocation = mergedPools([...executorPools, ...launches.flatMap((l) => (l?.kind === 'launch' ? l.allocation : []))]);
    return {
      kind: 'launchGroup', executorId: executor.executorId.value, executorResources: scalarSum(executorPools), labels: {},
      networking: { mode: 'host', networks: [], portMappings: [] },
      tasks: volumes.length === 0 ? tasks : tasks.map((t) => ({ ...t, persistentVolumes: volumes })),
      allocation,
    };
  }

  /** Resources as the core's pools, with this framework's reservations and volumes. */
  private poolsOf(resources: readonly Resource[], what: string): readonly OfferedPool[] {
    return offerFromMesos({ id: { value: what }, frameworkId: { value: '' }, agentId: { value: '' }, hostname: '', resources: [...resources] }, this.fake.frameworkId).pools;
  }

  /** A LAUNCH task back as the core's launch operation: the allocation is exactly the task's resources. */
  private launchOf(info: TaskInfo): Extract<CoreOperation, { kind: 'launch' }> | undefined {
    const taskId = info.taskId.value;
    const runSpecId = info.command?.environment?.variables?.find((v) => v.name === 'MARATHON_APP_ID')?.value;
    const spec = runSpecId === undefined ? undefined : this.options.runSpecOf(runSpecId);
    if (runSpecId === undefined || spec === undefined) {
      this.problems.push(`task ${taskId}: no MARATHON_APP_ID of a known run spec in its environment`);
      return undefined;
    }
    const healthCheck = info.healthCheck === undefined ? undefined : agentCheckOfMesos(info.healthCheck);
    if (typeof healthCheck === 'string') this.problems.push(`task ${taskId}: ${healthCheck}`);
    const check = info.check === undefined ? undefined : checkOfMesos(info.check);
    if (typeof check === 'string') this.problems.push(`task ${taskId}: ${check}`);
    const resources = info.resources ?? [];
    const pools = this.poolsOf(resources, taskId);
    const volumes = pools.flatMap((p) => p.volumes ?? []);
    const allocation = pools.map(({ volumes: _v, ...p }) => p);
    const graceNs = info.killPolicy?.gracePeriod?.nanoseconds;
    const task: TaskLaunch = makeTaskLaunch({
      taskId,
      instanceId: instanceIdOfTask(taskId),
      runSpecId,
      runSpecVersion: spec.version,
      agentId: info.agentId.value,
      hostname: '',
      role: resources.map(reservationRole).find((r) => r !== undefined) ?? this.options.defaultRole,
      resources: scalarSum(allocation),
      hostPorts: allocation.flatMap((p) => p.ports.flatMap(([b, e]) => Array.from({ length: e - b + 1 }, (_, i) => b + i))),
      killGracePeriodMs: graceNs === undefined ? 3000 : nanosToMs(graceNs),
      ...(volumes.length === 0 ? {} : { persistentVolumes: volumes }),
      ...(healthCheck === undefined || typeof healthCheck === 'string' ? {} : { healthCheck }),
      ...(check === undefined || typeof check === 'string' ? {} : { check }),
    });
    return { kind: 'launch', task, allocation };
  }
}

/** The one labelled reservation of this framework that `resources` are on (with their volumes), if they are on exactly one. */
function reservedPoolOf(resources: readonly Resource[], frameworkId: string | undefined): OfferedPool | undefined {
  const pools = offerFromMesos({ id: { value: 'op' }, frameworkId: { value: '' }, agentId: { value: '' }, hostname: '', resources: [...resources] }, frameworkId).pools;
  return pools.length === 1 && pools[0].reservationId !== undefined ? pools[0] : undefined;
}

/** The persistent volumes of CREATE / DESTROY resources. */
function volumesOf(resources: readonly Resource[]): PersistentVolume[] {
  return resources.flatMap((r) => {
    const id = r.disk?.persistence?.id;
    return id === undefined ? [] : [{ persistenceId: id, containerPath: r.disk?.volume?.containerPath ?? '', diskMilli: Math.round((r.scalar?.value ?? 0) * 1000) }];
  });
}

/** Pools of one reservation added up (the executor's and the tasks' shares of one launch group). */
function mergedPools(pools: readonly OfferedPool[]): OfferedPool[] {
  const byKey = new Map<string, { -readonly [K in keyof OfferedPool]: OfferedPool[K] } & { ports: PortRange[] }>();
  for (const { volumes: _v, ...p } of pools) {
    const key = `${p.reservedFor ?? '*'}\u0000${p.reservationId ?? ''}`;
    const sum = byKey.get(key);
    if (sum === undefined) byKey.set(key, { ...p, ports: [...p.ports] });
    else {
      sum.cpusMilli += p.cpusMilli;
      sum.memMilli += p.memMilli;
      sum.diskMilli += p.diskMilli;
      sum.gpus += p.gpus;
      sum.ports = [...sum.ports, ...p.ports];
    }
  }
  return [...byKey.values()];
}

function scalarSum(pools: readonly OfferedPool[]): TaskLaunch['resources'] {
  const sum = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
  for (const p of pools) {
    sum.cpusMilli += p.cpusMilli;
    sum.memMilli += p.memMilli;
    sum.diskMilli += p.diskMilli;
    sum.gpus += p.gpus;
  }
  return sum;
}

/** A simulated offer as a Mesos offer with the same content (§3.2, §4.1–4.5). */
export function mesosOfferOf(frameworkId: string, offer: Offer): MesosOffer {
  const agent = offer.agent;
  const out: MesosOffer = {
    id: { value: offer.offerId },
    frameworkId: { value: frameworkId },
    agentId: { value: agent.agentId },
    hostname: agent.hostname,
    resources: offer.pools.flatMap((p) => resourcesOfPool(frameworkId, p)),
    attributes: agent.attributes.map(mesosAttributeOf),
  };
  if (agent.region !== undefined && agent.zone !== undefined) {
    out.domain = { faultDomain: { region: { name: agent.region }, zone: { name: agent.zone } } };
  }
  return out;
}

/**
 * One pool as Mesos resources. Unreserved: pre-refinement role `*`; a role's pool: a static
 * reservation; a resident instance's reservation: a pre-refinement dynamic reservation labelled
 * for it, each of its persistent volumes a disk of its own (the rest of the disk plain).
 */
function resourcesOfPool(frameworkId: string, pool: OfferedPool): Resource[] {
  const who: Partial<Resource> = pool.reservedFor === undefined ? { role: '*' }
    : pool.reservationId === undefined ? { reservations: [{ type: 'STATIC', role: pool.reservedFor }] }
      : { role: pool.reservedFor, reservation: { labels: reservationLabels(frameworkId, pool.reservationId) } };
  const out: Resource[] = [];
  const scalar = (name: string, value: number): void => {
    if (value > 0) out.push({ name, type: 'SCALAR', scalar: { value }, ...who });
  };
  const volumes = pool.volumes ?? [];
  scalar('cpus', pool.cpusMilli / 1000);
  scalar('mem', pool.memMilli / 1000);
  scalar('disk', (pool.diskMilli - volumes.reduce((n, v) => n + v.diskMilli, 0)) / 1000);
  for (const v of volumes) {
    out.push({ name: 'disk', type: 'SCALAR', scalar: { value: v.diskMilli / 1000 }, ...who, disk: { persistence: { id: v.persistenceId }, volume: { containerPath: v.containerPath, mode: 'RW' } } });
  }
  scalar('gpus', pool.gpus);
  if (pool.ports.length > 0) out.push({ name: 'ports', type: 'RANGES', ranges: { range: pool.ports.map(([begin, end]) => ({ begin, end })) }, ...who });
  return out;
}

function mesosAttributeOf(attr: AgentAttribute): Attribute {
  switch (attr.type) {
    case 'text': return { name: attr.name, type: 'TEXT', text: { value: attr.text } };
    case 'scalar': return { name: attr.name, type: 'SCALAR', scalar: { value: attr.scalar } };
    case 'ranges': return { name: attr.name, type: 'RANGES', ranges: { range: attr.ranges.map(([begin, end]) => ({ begin, end })) } };
    case 'set': return { name: attr.name, type: 'SET', set: { item: [...attr.set] } };
  }
}

/**
 * A simulated status as a Mesos TaskStatus: a reliable update (with the simulator's uuid, sent
 * as its UTF-8 bytes so the ACKNOWLEDGE names it back) comes from the executor, the others from
 * the master (§7.1: those carry no uuid and are never acknowledged). The executor's updates carry
 * the agent's address in `container_status.network_infos`, as a Mesos agent's do.
 */
function mesosStatusOf(status: CoreTaskStatus): MesosTaskStatus {
  return {
    taskId: { value: status.taskId },
    state: status.state,
    ...(status.agentId === undefined ? {} : { agentId: { value: status.agentId } }),
    ...(status.reason === undefined ? {} : { reason: status.reason as TaskStatusReason }),
    ...(status.message === undefined ? {} : { message: status.message }),
    ...(status.healthy === undefined ? {} : { healthy: status.healthy }),
    ...(status.checkStatus === undefined ? {} : { checkStatus: checkStatusInfoOf(status.checkStatus) }),
    // The simulated host's address, where a Mesos agent reports a host-network task's (its own IP).
    ...(status.ipAddresses === undefined ? {} : {
      containerStatus: { networkInfos: [{ ipAddresses: status.ipAddresses.map((ip) => ({ ipAddress: ip.ipAddress, protocol: ip.protocol })) }] },
    }),
    // The virtual millisecond the master model marked the agent in, exactly (the codec carries
    // int64 exactly, so a whole millisecond is read back as itself: nanos-to-ms.ts).
    ...(status.unreachableSinceMs === undefined ? {} : { unreachableTime: { nanoseconds: BigInt(status.unreachableSinceMs) * 1_000_000n } }),
    source: status.uuid === undefined ? 'SOURCE_MASTER' : 'SOURCE_EXECUTOR',
    ...(status.uuid === undefined ? {} : { uuid: new TextEncoder().encode(status.uuid) }),
  };
}

/** A simulated check status as the `check_status` a Mesos executor sends: `type` set, and its sub-message. */
function checkStatusInfoOf(status: CheckStatus): CheckStatusInfo {
  if (status.http !== undefined) return { type: 'HTTP', http: { ...status.http } };
  if (status.tcp !== undefined) return { type: 'TCP', tcp: { ...status.tcp } };
  return { type: 'COMMAND', command: { ...status.command } };
}
