import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { IpAddress } from '../../src/scheduler/model/ip-address';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import { toMilli } from '../../src/scheduler/model/resources';
import { isTerminalTaskState, type TaskState } from '../../src/scheduler/model/task-state';
import type { ClusterDriver } from '../../src/scheduler/ports/cluster-driver';
import { Master } from '../../src/master/master';
import { isReservationOperation } from '../../src/scheduler/model/reservation';
import { operationTasks, type MasterAgentSpec, type MasterAcceptOperation } from '../../src/master/master-types';
import type { SimContext } from '../sim-context';
import { ClusterState, type SimClusterOptions } from './cluster-state';
import { CoreOutbox } from './core-outbox';
import type { AgentPhase, LiveTask, SimLaunch, UnackedUpdate } from './cluster-types';
import { ExecutorSim } from './executor-sim';
import type { HealthModel, SimTimings, TaskModel } from './sim-models';
import type { SimAgentSpec, SimResources } from './sim-agent-spec';
import { AgentAddresses } from './agent-addresses';
import type { SimEvent } from './sim-event';

export type { SimClusterOptions } from './cluster-state';

/** The tasks of one executor a run starts with (see {@link SimCluster.adoptTasks}). */
export interface AdoptedTasks {
  readonly agentId: string;
  /** A pod's task group (default executor) rather than one task on the command executor. */
  readonly group: boolean;
  readonly launches: readonly SimLaunch[];
  /** What the executor holds on its agent, booked against the agent's pools. */
  readonly allocation: readonly OfferedPool[];
  readonly state: TaskState;
  readonly healthy?: boolean;
}

/** What the prober needs to know about a task it probes (see {@link SimCluster.probeTarget}). */
export interface ProbeTarget {
  readonly state: TaskState;
  readonly runSpecId: string;
  /** The agent is connected (a partitioned or dead agent does not answer). */
  readonly reachable: boolean;
}

/**
 * The simulated Mesos master and its agents, in virtual time: a {@link ClusterDriver} for the
 * scheduler core plus the operator and fault controls a scenario uses, and the accounting the
 * invariant checker reads. The master is the master model (`src/master`, the same one the local
 * cluster and the wire fake of the tests use) on the simulator's clock; the agents are virtual
 * executors ({@link ExecutorSim}). Partition-aware semantics follow
 * shared/spec/mesos-v1-scheduler-api.md (§ numbers in the comments). Everything happens through
 * `ctx`: time from `ctx.nowMs()`, future work as `SimEvent`s in the one loop (handed back to
 * {@link onEvent}), inputs for the core via `ctx.toCore`, randomness from `ctx.streams`, and one
 * trace record per driver call and per input.
 *
 * Usage: construct, `start()`, route every `{to:'sim'}` loop entry to `onEvent`.
 */
export class SimCluster implements ClusterDriver {
  /** Broken rules of the scheduler's use of the cluster (over-committed launches, bad acks …). */
  readonly violations: string[];
  /** The timings this cluster runs with. */
  readonly timings: SimTimings;
  private readonly s: ClusterState;
  private readonly ex: ExecutorSim;
  private readonly master: Master<SimLaunch>;
  private readonly outbox: CoreOutbox;
  /** Each agent host's IP address, which its executors' updates carry (`ipAddresses`). */
  private readonly addresses = new AgentAddresses();
  /** The framework id the master registered at the first subscription (none before). */
  private registeredFrameworkId: string | undefined;
  /** The run keeps trace records: build the driver calls' records only then. */
  private readonly tracing: boolean;

  constructor(
    private readonly ctx: SimContext,
    agents: readonly SimAgentSpec[],
    options: SimClusterOptions,
  ) {
    this.tracing = ctx.tracing !== false;
    this.s = new ClusterState(ctx, options);
    this.ex = new ExecutorSim(this.s);
    let uuidSeq = 0;
    this.outbox = new CoreOutbox(ctx);
    this.master = new Master<SimLaunch>(ctx, this.outbox, this.ex, {
      offerIntervalMs: options.timings.offerIntervalMs,
      agentPingTimeoutMs: options.timings.agentPingTimeoutMs,
      agentRemovalMs: options.timings.agentRemovalMs ?? 0,
      offerId: (n) => `offer-${n}`,
      newUuid: () => `u-${++uuidSeq}`,
      onProblem: (message) => this.s.violation(message),
    });
    this.s.master = this.master;
    this.violations = this.s.violations;
    this.timings = options.timings;
    for (const spec of agents) this.master.addAgent(masterAgentSpec(spec, this.addresses.of(spec.hostname)));
  }

  /** Origin of the time-based health models. */
  get scenarioStartMs(): number {
    return this.s.scenarioStartMs;
  }

  /** Begin the offer cycles; the first runs now. */
  start(): void {
    this.master.start();
  }

  /** Handle one of the cluster's own loop entries. */
  onEvent(e: SimEvent): void {
    switch (e.kind) {
      case 'offerCycle':
      case 'filterExpired':
      case 'agentUnreachable':
      case 'agentRemoved':
        this.master.onTimer(e);
        return;
      case 'launchStep': {
        const ex = this.s.executors.get(e.executorNo);
        if (ex !== undefined) this.ex.onLaunchStep(ex);
        return;
      }
      case 'killDone': {
        const ex = this.s.executors.get(e.executorNo);
        if (ex !== undefined) this.ex.onKillDone(ex);
        return;
      }
      case 'taskExit': {
        const task = this.s.tasks.get(e.taskId);
        if (task !== undefined) this.ex.onTaskExit(task);
        return;
      }
      case 'healthCheck': {
        const task = this.s.tasks.get(e.taskId);
        if (task !== undefined) this.ex.onHealthCheck(task);
        return;
      }
      case 'check': {
        const task = this.s.tasks.get(e.taskId);
        if (task !== undefined) this.ex.onCheck(task);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- ClusterDriver

  /**
   * ACCEPT (spec §2.3), by the master model (`Master.accept`): a stale offer drops every task
   * (TASK_DROPPED, REASON_INVALID_OFFERS, at now+1); an operation that does not fit what is left of
   * the offer is recorded in {@link violations} and its tasks get TASK_ERROR at now+1; valid ones
   * consume exactly their `allocation` and start. The agent is then filtered for `refuseMs`.
   */
  accept(offerId: string, operations: readonly MasterAcceptOperation<SimLaunch>[], refuseMs: number): void {
    if (this.tracing) {
      const taskIds: string[] = [];
      for (const op of operations) for (const t of operationTasks(op)) taskIds.push(t.taskId);
      const agentId = this.master.offerAgentId(offerId) ?? (operations.length > 0 ? operationTasks(operations[0])[0]?.agentId : undefined);
      const reservations = operations.filter(isReservationOperation).map((op) => `${op.kind} ${op.reservationId}`);
      // Reservation operations are traced only when present, so traces without them stay as they were.
      this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'accept', offer: offerId, agent: agentId, tasks: taskIds, refuseMs, ...(reservations.length > 0 ? { reservations } : {}) });
    }
    this.master.accept(offerId, operations, refuseMs);
  }

  /** DECLINE (spec §2.4): filter each offer's agent for `refuseMs`; unknown ids are ignored. */
  decline(offerIds: readonly string[], refuseMs: number): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'decline', offers: offerIds, refuseMs });
    this.master.decline(offerIds, refuseMs);
  }

  /** KILL (spec §2.8, §7.6), by the master model (`Master.kill`). */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'kill', task: taskId, agent: agentId, graceMs: gracePeriodMs });
    this.master.kill(taskId, agentId, gracePeriodMs);
  }

  /**
   * ACKNOWLEDGE (spec §7.1), by the master model: an unknown uuid (duplicate ack) is ignored; a
   * uuid of another task or agent is a violation.
   */
  acknowledge(agentId: string, taskId: string, uuid: string): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'ack', task: taskId, uuid });
    this.master.acknowledge(agentId, taskId, uuid);
  }

  /** RECONCILE (spec §7.2), answered by the master model now (`Master.reconcile`). */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'reconcile', tasks: tasks.map((t) => t.taskId) });
    this.master.reconcile(tasks);
  }

  /** REVIVE (spec §2.6): un-suppress the roles (all when empty) and clear refuse filters. */
  revive(roles: readonly string[]): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'revive', roles });
    this.master.revive(roles);
  }

  /** SUPPRESS (spec §2.7): no more offers for the roles (all when empty) until revived. */
  suppress(roles: readonly string[]): void {
    if (this.tracing) this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'suppress', roles });
    this.master.suppress(roles);
  }

  /**
   * UPDATE_FRAMEWORK with a new role set. Traced only: the simulated master offers every role's
   * resources to the framework whatever it subscribed to (revive/suppress still apply per role).
   */
  updateFrameworkRoles(roles: readonly string[]): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'updateFramework', roles });
  }

  // ---------------------------------------------------------------- the scheduler's subscription

  /** The framework id the master registered, once a scheduler subscribed. */
  get frameworkId(): string | undefined {
    return this.registeredFrameworkId;
  }

  /**
   * A scheduler SUBSCRIBEs (mesos-v1-scheduler-api.md §1.8). Without an id — the first
   * subscription — the master registers the framework as {@link SIM_FRAMEWORK_ID}; with one, it
   * must be the registered id (a new one would orphan every running task: recorded in
   * {@link violations}, and the subscription is refused). The scheduler hears `subscribed`; a
   * resubscription also reactivates offers and makes the agents retry what was not acknowledged
   * (`Master.frameworkSubscribed`). Scenarios without a `schedulerFailover` never subscribe: their
   * scheduler runs without a framework id, as it always did.
   */
  subscribe(frameworkId?: string): void {
    if (frameworkId !== undefined && frameworkId !== this.registeredFrameworkId) {
      this.s.violation(`the scheduler subscribed with framework id ${frameworkId}, but the master knows the framework as ${this.registeredFrameworkId ?? '(none)'}: its tasks would be orphaned`);
      return;
    }
    const resubscribing = this.registeredFrameworkId !== undefined;
    this.registeredFrameworkId ??= SIM_FRAMEWORK_ID;
    this.outbox.connected = true;
    this.outbox.subscribed(this.registeredFrameworkId);
    if (resubscribing) this.master.frameworkSubscribed();
  }

  /**
   * The scheduler died (§1.8): the master deactivates the framework — no offers, outstanding ones
   * discarded — and keeps its tasks running; what it would tell the framework is lost (traced with
   * `lost: true`) until a scheduler subscribes again.
   */
  disconnect(): void {
    this.outbox.connected = false;
    this.master.frameworkDisconnected();
  }

  // ---------------------------------------------------------------- operator and faults

  /** How tasks of `runSpecId` behave; applies to live tasks (exits re-planned from now) and future ones. */
  setTaskModel(runSpecId: string, model: TaskModel): void {
    this.s.setTaskModel(runSpecId, model);
    this.ex.taskModelChanged(runSpecId);
  }

  /** How the health endpoint of `runSpecId` answers; running tasks' agent-run checks re-evaluate at their next check time. */
  setHealthModel(runSpecId: string, model: HealthModel): void {
    this.s.setHealthModel(runSpecId, model);
    this.ex.healthModelChanged(runSpecId);
  }

  /**
   * Cut the agent off (spec §7.4): its offer is rescinded now and it gets no more offers; its tasks
   * keep running and their updates are held. After `agentPingTimeoutMs` the master marks it
   * unreachable: TASK_UNREACHABLE (REASON_AGENT_REMOVED, no uuid) for each task it knows there.
   */
  partitionAgent(agentId: string): void {
    this.master.disconnectAgent(agentId);
  }

  /**
   * End a partition. Before the ping timeout, the agent reconnects: held updates are delivered in
   * order (with uuids), then remembered kills run. After it, the agent reregisters (spec §7.4): each
   * task it runs — or that ended meanwhile — is reported in its current state with
   * REASON_AGENT_REREGISTERED, no uuid; tasks are not killed. Offers resume. A dead agent cannot heal.
   */
  healAgent(agentId: string): void {
    this.master.reconnectAgent(agentId);
  }

  /**
   * The agent's host dies for good: nothing on it runs any more, its offer is rescinded. After
   * `agentPingTimeoutMs` its tasks become TASK_UNREACHABLE (as for a partition); `agentRemovalMs`
   * later (default 0) the agent is removed: TASK_GONE (REASON_AGENT_REMOVED, no uuid) for each task
   * the framework still thinks alive, then `agentLost`.
   */
  killAgent(agentId: string): void {
    this.master.hostDied(agentId);
  }

  /** A new agent registers; it is offered from the next offer cycle. A removed agent's id may be reused. */
  addAgent(spec: SimAgentSpec): void {
    this.master.addAgent(masterAgentSpec(spec, this.addresses.of(spec.hostname)));
  }

  /**
   * Tasks already running (or staging, starting) on an agent when the run starts, as a what-if
   * fork of a live cluster adopts them (src/whatif): the master books `allocation` on the agent
   * and remembers the tasks with `state` as what the framework was last told; the agent runs them
   * on (see `ExecutorSim.adopt`). Call before {@link start}. An unknown agent is a violation.
   */
  adoptTasks(adopted: AdoptedTasks): void {
    if (this.master.agent(adopted.agentId) === undefined) {
      this.s.violation(`adopted tasks ${adopted.launches.map((l) => l.taskId).join(',')} on unknown agent ${adopted.agentId}`);
      return;
    }
    const executor = this.master.adoptExecutor({
      agentId: adopted.agentId, executorId: `adopted-${adopted.launches[0]?.instanceId ?? adopted.agentId}`,
      group: adopted.group, allocation: adopted.allocation,
      tasks: adopted.launches.map((l) => ({ taskId: l.taskId, state: adopted.state, ...(adopted.healthy === undefined ? {} : { healthy: adopted.healthy }) })),
    });
    this.ex.adopt(adopted.launches, adopted.state, executor, adopted.healthy);
  }

  /** A new agent given as the master model registers it (identity and capacity per pool, milli-units): a what-if fork's agents. */
  addForkAgent(info: AgentInfo, pools: readonly OfferedPool[]): void {
    this.master.addAgent({ info, pools, ipAddresses: this.addresses.of(info.hostname) });
  }

  /** Rescind the outstanding offer of one agent, or of all agents; the resources are offered again next cycle. */
  rescindOffers(agentId?: string): void {
    this.master.rescindOffers(agentId);
  }

  // ---------------------------------------------------------------- accounting

  /** Ids of all agents not removed, sorted. */
  agentIds(): readonly string[] {
    return this.master.agentIds();
  }

  /** Identity, fault domain and attributes of every agent not removed, in agentId order. */
  agentInfos(): readonly AgentInfo[] {
    return this.master.agentInfos();
  }

  /** Capacity per pool: the unreserved pool first, then one per reserved role in role order. */
  agentCapacity(agentId: string): readonly OfferedPool[] {
    return this.master.agentCapacity(agentId);
  }

  /** Usage per pool (same order as {@link agentCapacity}): the allocations of executors with a live task. */
  agentUsage(agentId: string): readonly OfferedPool[] {
    return this.master.agentUsage(agentId);
  }

  /** Where the agent stands with the master; undefined for an unknown id. */
  agentStatus(agentId: string): { readonly phase: AgentPhase; readonly dead: boolean } | undefined {
    return this.master.agentStatus(agentId);
  }

  /** The agent of a task the master still remembers. */
  taskAgent(taskId: string): string | undefined {
    return this.master.taskAgent(taskId);
  }

  /** Tasks on the agents whose executor has not ended (the runner's livelock bound grows with it). */
  taskCount(): number {
    return this.s.tasks.size;
  }

  /**
   * Tasks alive on their agents (non-terminal state, host not dead), launch order. Includes tasks
   * on partitioned agents; `state` is the state on the agent, which the framework may not know yet.
   */
  liveTasks(): readonly LiveTask[] {
    const out: LiveTask[] = [];
    for (const t of this.s.tasks.values()) {
      if (isTerminalTaskState(t.state) || t.executor.agent.dead) continue;
      out.push({ taskId: t.taskId, agentId: t.launch.agentId, state: t.state, runSpecId: t.launch.runSpecId, instanceId: t.launch.instanceId });
    }
    return out;
  }

  /** Reliable updates the framework has not acknowledged yet, oldest first. */
  unacknowledged(): readonly UnackedUpdate[] {
    return this.master.unacknowledged();
  }

  /** Offers the framework holds, oldest first. */
  outstandingOffers(): readonly { readonly offerId: string; readonly agentId: string }[] {
    return this.master.outstandingOffers();
  }

  /** For the prober: the task's state on its agent, or undefined when the cluster has no such task. */
  probeTarget(taskId: string): ProbeTarget | undefined {
    const t = this.s.tasks.get(taskId);
    if (t === undefined) return undefined;
    const agent = t.executor.agent;
    return { state: t.state, runSpecId: t.launch.runSpecId, reachable: agent.phase === 'connected' && !agent.dead };
  }

  /** The health model of a run spec (default `healthy`). */
  healthModel(runSpecId: string): HealthModel {
    return this.s.healthModel(runSpecId);
  }
}

/** The framework id the simulated master gives the first scheduler that subscribes. */
export const SIM_FRAMEWORK_ID = 'sim-framework-0001';

/** A simulated agent as the master model registers it: its resources as pools in milli-units, its host's addresses. */
function masterAgentSpec(spec: SimAgentSpec, ipAddresses: readonly IpAddress[]): MasterAgentSpec {
  return {
    info: {
      agentId: spec.agentId,
      hostname: spec.hostname,
      ...(spec.region === undefined ? {} : { region: spec.region }),
      ...(spec.zone === undefined ? {} : { zone: spec.zone }),
      attributes: spec.attributes,
    },
    pools: [poolOf(undefined, spec.resources), ...spec.reserved.map((r) => poolOf(r.role, r))],
    ipAddresses,
  };
}

function poolOf(reservedFor: string | undefined, r: SimResources): OfferedPool {
  const amounts = { cpusMilli: toMilli(r.cpus), memMilli: toMilli(r.mem), diskMilli: toMilli(r.disk), gpus: r.gpus, ports: r.ports };
  return reservedFor === undefined ? amounts : { reservedFor, ...amounts };
}
