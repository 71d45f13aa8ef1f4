import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { LaunchOperation, TaskLaunch } from '../../src/scheduler/model/launch';
import { isTerminalTaskState, type TaskState } from '../../src/scheduler/model/task-state';
import type { ClusterDriver } from '../../src/scheduler/ports/cluster-driver';
import type { SimContext } from '../sim-context';
import type { PoolAmounts } from './agent-ledger';
import { AgentFaults } from './agent-faults';
import { ClusterState, type SimClusterOptions } from './cluster-state';
import type { AgentPhase, LiveTask, SimAgentState, UnackedUpdate } from './cluster-types';
import { ExecutorSim } from './executor-sim';
import type { HealthModel, SimTimings, TaskModel } from './sim-models';
import { LaunchCheck } from './launch-check';
import { masterKnows, MasterReconciler } from './master-reconciler';
import type { SimAgentSpec } from './sim-agent-spec';
import type { SimEvent } from './sim-event';

export type { SimClusterOptions } from './cluster-state';

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
 * invariant checker reads. Partition-aware semantics follow shared/spec/mesos-v1-scheduler-api.md
 * (§ numbers in the comments). Everything happens through `ctx`: time from `ctx.nowMs()`, future
 * work as `SimEvent`s in the one loop (handed back to {@link onEvent}), inputs for the core via
 * `ctx.toCore`, randomness from `ctx.streams`, and one trace record per driver call and per input.
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
  private readonly faults: AgentFaults;
  private readonly reconciler: MasterReconciler;

  constructor(
    private readonly ctx: SimContext,
    agents: readonly SimAgentSpec[],
    options: SimClusterOptions,
  ) {
    this.s = new ClusterState(ctx, options);
    this.ex = new ExecutorSim(this.s);
    this.faults = new AgentFaults(this.s, this.ex);
    this.reconciler = new MasterReconciler(this.s);
    this.violations = this.s.violations;
    this.timings = options.timings;
    for (const spec of agents) this.faults.register(spec);
  }

  /** Origin of the time-based health models. */
  get scenarioStartMs(): number {
    return this.s.scenarioStartMs;
  }

  /** Begin the offer cycles; the first runs now. */
  start(): void {
    this.s.desk.start();
  }

  /** Handle one of the cluster's own loop entries. */
  onEvent(e: SimEvent): void {
    switch (e.kind) {
      case 'offerCycle':
        this.s.desk.runCycle();
        return;
      case 'filterExpired': {
        const agent = this.s.agents.get(e.agentId);
        if (agent !== undefined) this.s.desk.filterExpired(agent);
        return;
      }
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
      case 'agentUnreachable': {
        const agent = this.s.agents.get(e.agentId);
        if (agent !== undefined) this.faults.markUnreachable(agent);
        return;
      }
      case 'agentRemoved': {
        const agent = this.s.agents.get(e.agentId);
        if (agent !== undefined) this.faults.remove(agent);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- ClusterDriver

  /**
   * ACCEPT (spec §2.3). A stale offer (rescinded, used, never made) → every task TASK_DROPPED with
   * REASON_INVALID_OFFERS at now+1, no uuid. Otherwise each operation is checked in order against
   * what is left of the offer; one that takes more than was offered (or is otherwise invalid) is
   * recorded in {@link violations} and its tasks get TASK_ERROR (REASON_TASK_INVALID, or
   * REASON_TASK_GROUP_INVALID for a group) at now+1 — the master refuses such a launch. Valid
   * operations consume exactly their `allocation` and start. The agent is then filtered for
   * `refuseMs`.
   */
  accept(offerId: string, operations: readonly LaunchOperation[], refuseMs: number): void {
    const now = this.ctx.nowMs();
    const offer = this.s.desk.take(offerId);
    const taskIds: string[] = [];
    for (const op of operations) for (const t of tasksOf(op)) taskIds.push(t.taskId);
    const agentId = offer?.agent.spec.agentId ?? (operations.length > 0 ? tasksOf(operations[0])[0]?.agentId : undefined);
    this.ctx.trace({ t: now, k: 'call', op: 'accept', offer: offerId, agent: agentId, tasks: taskIds, refuseMs });
    if (offer === undefined) {
      for (const op of operations) {
        for (const t of tasksOf(op)) {
          this.s.outbox.status(
            now + 1,
            { taskId: t.taskId, agentId: t.agentId, state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS', message: `offer ${offerId} is no longer valid` },
            false,
          );
        }
      }
      return;
    }
    const agent = offer.agent;
    const check = new LaunchCheck(offer.pools, agent.spec.agentId, (id) => this.s.tasks.has(id));
    for (const op of operations) {
      const problem = check.take(op);
      if (problem !== undefined) {
        this.s.violation(`accept ${offerId}: ${problem}`);
        const reason = op.kind === 'launch' ? 'REASON_TASK_INVALID' : 'REASON_TASK_GROUP_INVALID';
        for (const t of tasksOf(op)) {
          this.s.outbox.status(now + 1, { taskId: t.taskId, agentId: t.agentId, state: 'TASK_ERROR', reason, message: problem }, false);
        }
        continue;
      }
      this.s.desk.knowRoles(tasksOf(op).map((t) => t.role));
      agent.ledger.consume(op.allocation);
      this.ex.launch(agent, op);
    }
    this.s.desk.refuse(agent, refuseMs);
  }

  /** DECLINE (spec §2.4): filter each offer's agent for `refuseMs`; unknown ids are ignored. */
  decline(offerIds: readonly string[], refuseMs: number): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'decline', offers: offerIds, refuseMs });
    for (const id of offerIds) {
      const offer = this.s.desk.take(id);
      if (offer !== undefined) this.s.desk.refuse(offer.agent, refuseMs);
    }
  }

  /**
   * KILL (spec §2.8, §7.6). A task the master does not know — never launched, forgotten, or on an
   * unreachable agent — is answered by reconciliation instead (so an unreachable task is NOT
   * killed; the scheduler must kill it again when it comes back). An `agentId` that is not the
   * task's agent → ignored. A task on a disconnected (not yet unreachable) agent: the master
   * remembers the kill and sends it when the agent reregisters. Otherwise the whole executor is
   * killed (a task group dies together).
   */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'kill', task: taskId, agent: agentId, graceMs: gracePeriodMs });
    const task = this.s.tasks.get(taskId);
    if (task === undefined || !masterKnows(task)) {
      this.reconciler.explicit(taskId, agentId);
      return;
    }
    if (agentId !== undefined && agentId !== task.launch.agentId) return;
    if (isTerminalTaskState(task.state)) return;
    const agent = task.executor.agent;
    if (agent.phase === 'disconnected') {
      agent.pendingKills.set(taskId, gracePeriodMs);
      return;
    }
    this.ex.kill(task.executor, gracePeriodMs);
  }

  /**
   * ACKNOWLEDGE (spec §7.1): the update leaves the unacknowledged table; a terminal one lets the
   * master forget the task. An unknown uuid (duplicate ack) is ignored; a uuid of another task or
   * agent is a violation.
   */
  acknowledge(agentId: string, taskId: string, uuid: string): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'ack', task: taskId, uuid });
    const acked = this.s.outbox.acknowledge(agentId, taskId, uuid);
    if (acked === 'mismatch') {
      this.s.violation(`acknowledge of ${uuid} names task ${taskId} on ${agentId}, which it was not sent for`);
      return;
    }
    if (acked === undefined || !isTerminalTaskState(acked.state)) return;
    const task = this.s.tasks.get(taskId);
    if (task !== undefined && task.terminalUuid === uuid) this.s.forget(task);
  }

  /**
   * RECONCILE (spec §7.2), answered now without uuid and with REASON_RECONCILIATION. Explicit: a
   * task the master knows → the latest state sent (TASK_STAGING before the first), with its latest
   * `healthy`; otherwise by its agent: registered → TASK_GONE, unreachable → TASK_UNREACHABLE,
   * unknown, removed or not given → TASK_UNKNOWN. Implicit (empty list): every task the master
   * knows (not those on unreachable agents), launch order.
   */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'reconcile', tasks: tasks.map((t) => t.taskId) });
    if (tasks.length > 0) {
      for (const t of tasks) this.reconciler.explicit(t.taskId, t.agentId);
      return;
    }
    this.reconciler.implicit();
  }

  /** REVIVE (spec §2.6): un-suppress the roles (all when empty) and clear refuse filters. */
  revive(roles: readonly string[]): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'revive', roles });
    this.s.desk.revive(roles);
  }

  /** SUPPRESS (spec §2.7): no more offers for the roles (all when empty) until revived. */
  suppress(roles: readonly string[]): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'suppress', roles });
    this.s.desk.suppress(roles);
  }

  /**
   * UPDATE_FRAMEWORK with a new role set. Traced only: the simulated master offers every role's
   * resources to the framework whatever it subscribed to (revive/suppress still apply per role).
   */
  updateFrameworkRoles(roles: readonly string[]): void {
    this.ctx.trace({ t: this.ctx.nowMs(), k: 'call', op: 'updateFramework', roles });
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
    this.faults.partition(this.mustAgent(agentId));
  }

  /**
   * End a partition. Before the ping timeout, the agent reconnects: held updates are delivered in
   * order (with uuids), then remembered kills run. After it, the agent reregisters (spec §7.4): each
   * task it runs — or that ended meanwhile — is reported in its current state with
   * REASON_AGENT_REREGISTERED, no uuid; tasks are not killed. Offers resume. A dead agent cannot heal.
   */
  healAgent(agentId: string): void {
    this.faults.heal(this.mustAgent(agentId));
  }

  /**
   * The agent's host dies for good: nothing on it runs any more, its offer is rescinded. After
   * `agentPingTimeoutMs` its tasks become TASK_UNREACHABLE (as for a partition); `agentRemovalMs`
   * later (default 0) the agent is removed: TASK_GONE (REASON_AGENT_REMOVED, no uuid) for each task
   * the framework still thinks alive, then `agentLost`.
   */
  killAgent(agentId: string): void {
    this.faults.kill(this.mustAgent(agentId));
  }

  /** A new agent registers; it is offered from the next offer cycle. A removed agent's id may be reused. */
  addAgent(spec: SimAgentSpec): void {
    const old = this.s.agents.get(spec.agentId);
    if (old !== undefined && old.phase !== 'removed') throw new Error(`agent ${spec.agentId} already exists`);
    this.faults.register(spec);
  }

  /** Rescind the outstanding offer of one agent, or of all agents; the resources are offered again next cycle. */
  rescindOffers(agentId?: string): void {
    if (agentId === undefined) this.s.desk.rescindAll();
    else this.s.desk.rescind(this.mustAgent(agentId));
  }

  // ---------------------------------------------------------------- accounting

  /** Ids of all agents not removed, sorted. */
  agentIds(): readonly string[] {
    return this.s.agentIds();
  }

  /** Identity, fault domain and attributes of every agent not removed, in agentId order. */
  agentInfos(): readonly AgentInfo[] {
    return this.agentIds().map((id) => this.mustAgent(id).info);
  }

  /** Capacity per pool: the unreserved pool first, then one per reserved role in role order. */
  agentCapacity(agentId: string): readonly PoolAmounts[] {
    return this.mustAgent(agentId).ledger.capacity();
  }

  /** Usage per pool (same order as {@link agentCapacity}): the allocations of executors with a live task. */
  agentUsage(agentId: string): readonly PoolAmounts[] {
    return this.mustAgent(agentId).ledger.usage();
  }

  /** Where the agent stands with the master; undefined for an unknown id. */
  agentStatus(agentId: string): { readonly phase: AgentPhase; readonly dead: boolean } | undefined {
    const a = this.s.agents.get(agentId);
    return a === undefined ? undefined : { phase: a.phase, dead: a.dead };
  }

  /** The agent of a task the cluster still remembers. */
  taskAgent(taskId: string): string | undefined {
    return this.s.tasks.get(taskId)?.launch.agentId;
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
    return this.s.outbox.unacknowledged();
  }

  /** Offers the framework holds, oldest first. */
  outstandingOffers(): readonly { readonly offerId: string; readonly agentId: string }[] {
    return this.s.desk.outstandingOffers().map((o) => ({ offerId: o.offerId, agentId: o.agent.spec.agentId }));
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

  // ---------------------------------------------------------------- internals

  private mustAgent(agentId: string): SimAgentState {
    const a = this.s.agents.get(agentId);
    if (a === undefined) throw new Error(`unknown agent ${agentId}`);
    return a;
  }
}

function tasksOf(op: LaunchOperation): readonly TaskLaunch[] {
  return op.kind === 'launch' ? [op.task] : op.tasks;
}
