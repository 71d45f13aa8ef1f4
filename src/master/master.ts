import type { AgentInfo } from '../scheduler/model/agent';
import type { OfferedPool } from '../scheduler/model/offer';
import { isReservationOperation, type ReservationOperation } from '../scheduler/model/reservation';
import { isTerminalTaskState, type TaskState } from '../scheduler/model/task-state';
import type { CheckStatus } from '../scheduler/model/checks';
import { AcceptCheck, shortfall } from './accept-check';
import { AgentLifecycle } from './agent-lifecycle';
import type { AgentRuntime, MasterClock, MasterOutbox, MasterTimerEvent } from './master-ports';
import { masterKnows, MasterState, type MasterOptions } from './master-state';
import {
  operationExecutorId, operationTasks,
  type AgentPhase, type MasterAcceptOperation, type MasterAgent, type MasterAgentSpec, type MasterExecutor, type MasterTask, type MasterTaskLaunch,
  type UnackedUpdate,
} from './master-types';
import { unionRanges } from './port-ranges';
import type { DynamicReservation } from './agent-ledger';
import { Reconciler } from './reconciler';

export type { MasterOptions } from './master-state';

/**
 * A dynamic reservation of a resident instance on one agent, as the agent's ledger books it
 * ({@link DynamicReservation}), with the agent: what a cluster records to restore it after a
 * restart of its own ({@link Master.restoreReservation}).
 */
export interface MasterReservation extends DynamicReservation {
  readonly agentId: string;
}

/** An executor found running again after a restart of its cluster, as `Master.adoptExecutor` takes it. */
export interface AdoptedExecutor {
  readonly agentId: string;
  readonly executorId: string;
  readonly group: boolean;
  readonly allocation: readonly OfferedPool[];
  /** Its tasks with their recorded state and health; terminal ones are not remembered. */
  readonly tasks: readonly { readonly taskId: string; readonly state: TaskState; readonly healthy?: boolean; readonly checkStatus?: CheckStatus }[];
}

/**
 * The master model: one Mesos master, as every cluster of pacer plays it — the simulator
 * (`sim/cluster`, virtual time), the local cluster (`src/cluster/local`, real time) and the wire
 * fake of the tests (over the simulator's cluster). It owns
 * - the agents and their phases (connected, disconnected, unreachable, removed: §7.4),
 * - the allocator: which agent's free resources are offered, per role, with refuse filters and
 *   suppression ({@link OfferDesk} in offer-desk.ts),
 * - the ledger: resources and ports per agent and reservation pool (agent-ledger.ts), and what
 *   each executor holds,
 * - ACCEPT validation: an operation that does not fit what is left of the offer is refused as
 *   Mesos refuses it, TASK_ERROR or TASK_DROPPED with the reason (accept-check.ts),
 * - the task table (what the framework was told, what waits for an acknowledgement) and the
 *   answers to RECONCILE and to KILLs of unknown tasks (reconciler.ts).
 *
 * Time, the framework and the agents are injected: a {@link MasterClock} (the model reads no
 * clock and sets no timer of its own, so a simulated run replays exactly), a {@link MasterOutbox}
 * and an {@link AgentRuntime} whose executors run what the master accepted and report back through
 * {@link taskUpdate} and {@link executorEnded}. References: shared/spec/mesos-v1-scheduler-api.md
 * (§ numbers in the comments).
 */
export class Master<T extends MasterTaskLaunch> {
  private readonly s: MasterState<T>;
  private readonly lifecycle: AgentLifecycle<T>;
  private readonly reconciler: Reconciler<T>;

  constructor(clock: MasterClock, outbox: MasterOutbox, runtime: AgentRuntime<T>, options: MasterOptions) {
    this.s = new MasterState(clock, outbox, runtime, options);
    this.lifecycle = new AgentLifecycle(this.s);
    this.reconciler = new Reconciler(this.s);
  }

  /** Begin allocating: the first round runs now. */
  start(): void {
    this.s.desk.start();
  }

  /** Handle one of the master's own timer events (see {@link MasterClock.schedule}). */
  onTimer(event: MasterTimerEvent): void {
    switch (event.kind) {
      case 'offerCycle':
        this.s.desk.runCycle();
        return;
      case 'filterExpired':
        this.s.desk.filtersExpired(event.dueMs);
        return;
      case 'agentUnreachable': {
        const agent = this.s.agents.get(event.agentId);
        if (agent !== undefined) this.lifecycle.markUnreachable(agent);
        return;
      }
      case 'agentRemoved': {
        const agent = this.s.agents.get(event.agentId);
        if (agent !== undefined) this.lifecycle.remove(agent);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- agents

  /** A new agent registers; it is offered from the next round. A removed agent's id may be reused. */
  addAgent(spec: MasterAgentSpec): MasterAgent {
    const old = this.s.agents.get(spec.info.agentId);
    if (old !== undefined && old.phase !== 'removed') throw new Error(`agent ${spec.info.agentId} already exists`);
    return this.lifecycle.register(spec);
  }

  /**
   * The master loses the agent (a partition, §7.4): its offer is rescinded now and it gets no more
   * offers; its tasks keep running and their updates are held. After `agentPingTimeoutMs` the
   * master marks it unreachable: TASK_UNREACHABLE (REASON_AGENT_REMOVED, no uuid) for each task
   * it knows there.
   */
  disconnectAgent(agentId: string): void {
    this.lifecycle.disconnect(this.mustAgent(agentId));
  }

  /** The agent is reachable again: it reconnects or reregisters (see `AgentLifecycle.reconnect`). */
  reconnectAgent(agentId: string): void {
    this.lifecycle.reconnect(this.mustAgent(agentId));
  }

  /**
   * The agent's host dies for good: nothing on it runs any more, its offer is rescinded. After
   * `agentPingTimeoutMs` its tasks become TASK_UNREACHABLE; `agentRemovalMs` later the agent is
   * removed: TASK_GONE (REASON_AGENT_REMOVED, no uuid) for each task the framework still thinks
   * alive, then `agentLost`.
   */
  hostDied(agentId: string): void {
    this.lifecycle.hostDied(this.mustAgent(agentId));
  }

  /** Rescind the outstanding offer of one agent, or of all agents; the resources are offered again next round. */
  rescindOffers(agentId?: string): void {
    if (agentId === undefined) this.s.desk.rescindAll();
    else this.s.desk.rescind(this.mustAgent(agentId));
  }

  // ---------------------------------------------------------------- the scheduler's calls

  /**
   * ACCEPT (§2.3). A stale offer (rescinded, used, never made) → every task TASK_DROPPED with
   * REASON_INVALID_OFFERS at now+1, no uuid. An operation without tasks is skipped (a LAUNCH of
   * nothing is a decline, §2.3). Otherwise each operation is checked in order against
   * what is left of the offer ({@link AcceptCheck}, after the runtime's own `launchProblem`); a
   * refused one is reported to `onProblem` and its tasks get the refusal at now+1 — valid ones
   * consume exactly their `allocation` and start. The agent is then filtered for `refuseMs`.
   */
  accept(offerId: string, operations: readonly MasterAcceptOperation<T>[], refuseMs: number): void {
    const offer = this.s.desk.take(offerId);
    if (offer === undefined) {
      for (const op of operations) {
        if (isReservationOperation(op)) continue;
        for (const t of operationTasks(op)) {
          this.s.answer(1, { taskId: t.taskId, agentId: t.agentId, state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS', message: `offer ${offerId} is no longer valid` });
        }
      }
      return;
    }
    const agent = offer.agent;
    const check = new AcceptCheck(offer.pools, agent.agentId, (id) => this.s.tasks.has(id), (executorId) => this.s.executors.verdict(agent.agentId, executorId));
    for (const op of operations) {
      if (isReservationOperation(op)) {
        this.applyReservation(offerId, agent, check, op);
        continue;
      }
      // A launch of no task launches nothing (§2.3: it is a decline); the filter below still applies.
      if (operationTasks(op).length === 0) continue;
      const unrunnable = this.s.runtime.launchProblem?.(op);
      const refusal = unrunnable === undefined
        ? check.take(op)
        : { state: 'TASK_ERROR' as const, reason: op.kind === 'launch' ? 'REASON_TASK_INVALID' : 'REASON_TASK_GROUP_INVALID', message: unrunnable };
      if (refusal !== undefined) {
        this.s.problem(`accept ${offerId}: ${refusal.message}`);
        for (const t of operationTasks(op)) this.s.answer(1, { taskId: t.taskId, agentId: t.agentId, ...refusal });
        continue;
      }
      this.s.desk.knowRoles(operationTasks(op).map((t) => t.role));
      agent.ledger.consume(op.allocation);
      this.s.runtime.launch(op, this.book(agent, operationExecutorId(op), op.kind === 'launchGroup', op.allocation, operationTasks(op).map((t) => t.taskId)));
    }
    this.s.desk.refuse(agent, refuseMs);
  }

  /**
   * One reservation operation of an ACCEPT: checked against what is left of the offer
   * ({@link AcceptCheck.takeReservation}); a refused one is dropped and reported to `onProblem`
   * (Mesos drops an invalid operation; without an operation id the framework hears nothing and
   * sees the resources offered again as they were). A valid one changes the agent's books and
   * tells the runtime about created and destroyed volumes.
   */
  private applyReservation(offerId: string, agent: MasterAgent, check: AcceptCheck, op: ReservationOperation): void {
    const whole = agent.ledger.reservation(op.role, op.reservationId)?.capacity;
    const problem = check.takeReservation(op, whole);
    if (problem !== undefined) {
      this.s.problem(`accept ${offerId}: ${problem}`);
      return;
    }
    this.bookReservation(agent, op);
    this.s.runtime.reservationChanged?.(agent.agentId, op.role, op.reservationId);
  }

  /** Book one checked reservation operation in the agent's ledger. */
  private bookReservation(agent: MasterAgent, op: ReservationOperation): void {
    const volumes = agent.ledger.reservation(op.role, op.reservationId)?.volumes ?? [];
    switch (op.kind) {
      case 'reserve':
        this.s.desk.knowRoles([op.role]);
        agent.ledger.reserve(op.role, op.reservationId, sumAllocation(op.allocation));
        return;
      case 'create':
        agent.ledger.setVolumes(op.role, op.reservationId, [...volumes, ...op.volumes]);
        this.s.runtime.volumesCreated?.(agent.agentId, op.volumes);
        return;
      case 'destroy': {
        const gone = new Set(op.volumes.map((v) => v.persistenceId));
        agent.ledger.setVolumes(op.role, op.reservationId, volumes.filter((v) => !gone.has(v.persistenceId)));
        this.s.runtime.volumesDestroyed?.(agent.agentId, op.volumes);
        return;
      }
      case 'unreserve':
        agent.ledger.unreserve(op.role, op.reservationId);
        return;
    }
  }

  /** DECLINE (§2.4): filter each offer's agent for `refuseMs`; unknown ids are ignored. */
  decline(offerIds: readonly string[], refuseMs: number): void {
    for (const id of offerIds) {
      const offer = this.s.desk.take(id);
      if (offer !== undefined) this.s.desk.refuse(offer.agent, refuseMs);
    }
  }

  /**
   * KILL (§2.8, §7.6). A task the master does not know — never launched, forgotten, or on an
   * unreachable agent — is answered by reconciliation instead (so an unreachable task is NOT
   * killed; the scheduler must kill it again when it comes back). An `agentId` that is not the
   * task's agent → ignored, as is a task that already ended. A task on a disconnected (not yet
   * unreachable) agent: the master remembers the kill and sends it when the agent comes back.
   * Otherwise the runtime kills its executor (a task group dies together).
   */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    const task = this.s.tasks.get(taskId);
    if (task === undefined || !masterKnows(task)) {
      this.reconciler.explicit(taskId, agentId);
      return;
    }
    if (agentId !== undefined && agentId !== task.agent.agentId) return;
    if (isTerminalTaskState(task.state)) return;
    if (task.agent.phase === 'disconnected') {
      task.agent.pendingKills.set(taskId, gracePeriodMs);
      return;
    }
    this.s.runtime.kill(taskId, gracePeriodMs);
  }

  /**
   * ACKNOWLEDGE (§7.1): the update leaves the unacknowledged table; a terminal one lets the master
   * forget the task. An unknown uuid (a duplicate acknowledgement) is ignored; a uuid of another
   * task or agent is reported to `onProblem`.
   */
  acknowledge(agentId: string, taskId: string, uuid: string): void {
    const acked = this.s.updates.acknowledge(agentId, taskId, uuid);
    if (acked === 'mismatch') {
      this.s.problem(`acknowledge of ${uuid} names task ${taskId} on ${agentId}, which it was not sent for`);
      return;
    }
    if (acked === undefined || !isTerminalTaskState(acked.state)) return;
    const task = this.s.tasks.get(taskId);
    if (task !== undefined && task.terminalUuid === uuid) this.s.forget(task);
  }

  /**
   * RECONCILE (§7.2), answered now without uuid and with REASON_RECONCILIATION. Explicit: a task
   * the master knows → the latest state sent (TASK_STAGING before the first), with its latest
   * `healthy`; otherwise by its agent: registered → TASK_GONE, unreachable → TASK_UNREACHABLE,
   * unknown, removed or not given → TASK_UNKNOWN. Implicit (empty list): every task the master
   * knows (not those on unreachable agents), launch order.
   */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    if (tasks.length > 0) {
      for (const t of tasks) this.reconciler.explicit(t.taskId, t.agentId);
      return;
    }
    this.reconciler.implicit();
  }

  /** REVIVE (§2.6): un-suppress the roles (all when empty) and clear refuse filters. */
  revive(roles: readonly string[]): void {
    this.s.desk.revive(roles);
  }

  /** SUPPRESS (§2.7): no more offers for the roles (all when empty) until revived. */
  suppress(roles: readonly string[]): void {
    this.s.desk.suppress(roles);
  }

  // ---------------------------------------------------------------- the framework's subscription

  /**
   * The framework's subscription broke — its scheduler died (§1.8): the master deactivates it (no
   * offers; outstanding ones discarded) and keeps its tasks running (a long `failover_timeout`).
   * What the master tells it meanwhile is lost to it: the outbox's business, which knows whether
   * anyone listens.
   */
  frameworkDisconnected(): void {
    this.s.desk.deactivate();
  }

  /**
   * The framework subscribed again with its id (§1.8): offers resume (no role suppressed), and the
   * agents retry the latest unacknowledged update of each of their tasks (§7.1; see
   * `UpdateBook.retryLatest`) — only connected agents of live hosts can.
   */
  frameworkSubscribed(): void {
    this.s.desk.activate();
    this.s.updates.retryLatest(this.s.clock.nowMs(), (u) => {
      const task = this.s.tasks.get(u.taskId);
      return task !== undefined && task.agent.phase === 'connected' && !task.agent.dead;
    });
  }

  /** An allocation round now, off the grid (see `OfferDesk.allocateNow`). */
  allocateNow(): void {
    this.s.desk.allocateNow();
  }

  // ---------------------------------------------------------------- the agents' reports

  /**
   * An executor reports a new state (or health verdict, or check status) of one of its tasks. The agent forwards
   * it now (reliable, with a uuid), holds it while disconnected, or drops it while unreachable (the
   * reregistration re-sends the current state); a dead host reports nothing. Unknown tasks are
   * ignored.
   */
  taskUpdate(taskId: string, state: TaskState, reason?: string, healthy?: boolean, message?: string, checkStatus?: CheckStatus): void {
    const task = this.s.tasks.get(taskId);
    if (task === undefined) return;
    if (!isTerminalTaskState(task.state) && isTerminalTaskState(state)) task.executor.live--;
    task.state = state;
    if (healthy !== undefined) task.healthy = healthy;
    if (checkStatus !== undefined) task.checkStatus = checkStatus;
    this.s.deliver(task, state, reason, healthy, message, checkStatus);
  }

  /** The executor is gone from its agent: its allocation is free again (and offered), its id may be reused. */
  executorEnded(executor: MasterExecutor): void {
    if (this.s.executors.get(executor.agentId, executor.executorId) !== executor) return;
    this.s.executors.remove(executor);
    executor.agent.ledger.release(executor.allocation);
    this.s.desk.resourcesFreed(executor.agent);
  }

  /**
   * Put back a dynamic reservation that a restart of the cluster interrupted (its state file kept
   * it), as a Mesos agent keeps its checkpointed reservations across a master failover: its
   * amounts leave the agent's unreserved pool and its volumes are on it again, so it is offered
   * to its role from the next round. Call it after `addAgent` and before `adoptExecutor` and
   * `start`. Answers why it cannot be restored (an unknown agent, a reservation already booked,
   * amounts the unreserved pool no longer holds: the agent's resources were changed), or undefined.
   * Nothing is told to the runtime: the volumes' data is already there.
   */
  restoreReservation(r: MasterReservation): string | undefined {
    const agent = this.s.agents.get(r.agentId);
    if (agent === undefined || agent.phase === 'removed') return `agent ${r.agentId} is not registered`;
    if (agent.ledger.reservation(r.role, r.reservationId) !== undefined) return `reservation ${r.reservationId} of role ${r.role} is already booked on agent ${r.agentId}`;
    const free = agent.ledger.available().find((p) => p.reservedFor === undefined);
    const a = r.capacity;
    if (free === undefined || shortfall(free, a) !== undefined) return `agent ${r.agentId} has no longer the unreserved resources of reservation ${r.reservationId} (role ${r.role})`;
    this.s.desk.knowRoles([r.role]);
    agent.ledger.reserve(r.role, r.reservationId, { cpusMilli: a.cpusMilli, memMilli: a.memMilli, diskMilli: a.diskMilli, gpus: a.gpus, ports: a.ports });
    agent.ledger.setVolumes(r.role, r.reservationId, r.volumes);
    return undefined;
  }

  /** The dynamic reservation `reservationId` of `role` on the agent as booked, or undefined (none, or unreserved). */
  reservation(agentId: string, role: string, reservationId: string): MasterReservation | undefined {
    const booked = this.s.agents.get(agentId)?.ledger.reservation(role, reservationId);
    if (booked === undefined) return undefined;
    return { agentId, role, reservationId, capacity: booked.capacity, volumes: booked.volumes };
  }

  /** Every dynamic reservation of the agents not removed, agent by agent (agentId order), each in the order made. */
  reservations(): readonly MasterReservation[] {
    return this.agentIds().flatMap((agentId) => this.mustAgent(agentId).ledger.reservations().map((r) => ({ agentId, ...r })));
  }

  /**
   * Take over an executor that survived a restart of its cluster: book its allocation (the pools
   * the agent still has, a restored dynamic reservation included; the rest counts against nothing) and remember its non-terminal tasks
   * with what the framework was last told (their recorded state and health).
   */
  adoptExecutor(adopted: AdoptedExecutor): MasterExecutor {
    const agent = this.mustAgent(adopted.agentId);
    const allocation = adopted.allocation.filter((p) => agent.ledger.hasPool(p.reservedFor, p.reservationId));
    agent.ledger.consume(allocation);
    const live = adopted.tasks.filter((t) => !isTerminalTaskState(t.state));
    const executor = this.book(agent, adopted.executorId, adopted.group, allocation, live.map((t) => t.taskId));
    live.forEach((t, i) => {
      const task = executor.tasks[i];
      task.state = t.state;
      task.sentState = t.state;
      task.healthy = t.healthy;
      task.sentHealthy = t.healthy;
      task.checkStatus = t.checkStatus;
      task.sentCheckStatus = t.checkStatus;
    });
    return executor;
  }

  // ---------------------------------------------------------------- queries

  /** Ids of all agents not removed, sorted. */
  agentIds(): readonly string[] {
    return this.s.agentIds();
  }

  /** The agent's record (read-only for clusters), removed ones included until their id is reused. */
  agent(agentId: string): MasterAgent | undefined {
    return this.s.agents.get(agentId);
  }

  /** Identity, fault domain and attributes of every agent not removed, in agentId order. */
  agentInfos(): readonly AgentInfo[] {
    return this.agentIds().map((id) => this.mustAgent(id).info);
  }

  /** Capacity per pool: the unreserved pool first, then one per reserved role in role order. */
  agentCapacity(agentId: string): readonly OfferedPool[] {
    return this.mustAgent(agentId).ledger.capacity();
  }

  /** Usage per pool (same order as {@link agentCapacity}): the allocations of the executors on the agent. */
  agentUsage(agentId: string): readonly OfferedPool[] {
    return this.mustAgent(agentId).ledger.usage();
  }

  /** Where the agent stands with the master; undefined for an unknown id. */
  agentStatus(agentId: string): { readonly phase: AgentPhase; readonly dead: boolean } | undefined {
    const a = this.s.agents.get(agentId);
    return a === undefined ? undefined : { phase: a.phase, dead: a.dead };
  }

  /** The agent of a task the master still remembers. */
  taskAgent(taskId: string): string | undefined {
    return this.s.tasks.get(taskId)?.agent.agentId;
  }

  /** Every task the master remembers (non-terminal, or terminal and unacknowledged), launch order. */
  tasks(): IterableIterator<MasterTask> {
    return this.s.tasks.values();
  }

  /** Whether the master remembers the task. */
  remembers(taskId: string): boolean {
    return this.s.tasks.has(taskId);
  }

  /** Reliable updates the framework has not acknowledged yet, oldest first. */
  unacknowledged(): readonly UnackedUpdate[] {
    return this.s.updates.unacknowledged();
  }

  /** Offers the framework holds, oldest first. */
  outstandingOffers(): readonly { readonly offerId: string; readonly agentId: string }[] {
    return this.s.desk.outstandingOffers().map((o) => ({ offerId: o.offerId, agentId: o.agent.agentId }));
  }

  /** The agent of an outstanding offer. */
  offerAgentId(offerId: string): string | undefined {
    return this.s.desk.offer(offerId)?.agent.agentId;
  }

  // ---------------------------------------------------------------- internals

  /** Book a new executor and its tasks (TASK_STAGING, nothing sent yet). */
  private book(agent: MasterAgent, executorId: string, group: boolean, allocation: readonly OfferedPool[], taskIds: readonly string[]): MasterExecutor {
    const executor: MasterExecutor = { agent, agentId: agent.agentId, executorId, group, allocation, tasks: [], live: taskIds.length };
    for (const taskId of taskIds) {
      const task: MasterTask = {
        taskId, agent, executor, state: 'TASK_STAGING', healthy: undefined, sentState: undefined, sentHealthy: undefined, terminalUuid: undefined,
        checkStatus: undefined, sentCheckStatus: undefined,
      };
      executor.tasks.push(task);
      this.s.tasks.set(taskId, task);
      agent.tasks.add(task);
    }
    this.s.executors.add(executor);
    return executor;
  }

  private mustAgent(agentId: string): MasterAgent {
    const a = this.s.agents.get(agentId);
    if (a === undefined) throw new Error(`unknown agent ${agentId}`);
    return a;
  }
}

/** The amounts of an operation's allocation added up (what a RESERVE moves into the reservation). */
function sumAllocation(allocation: readonly OfferedPool[]): OfferedPool {
  let sum: OfferedPool = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };
  for (const a of allocation) {
    sum = { cpusMilli: sum.cpusMilli + a.cpusMilli, memMilli: sum.memMilli + a.memMilli, diskMilli: sum.diskMilli + a.diskMilli, gpus: sum.gpus + a.gpus, ports: unionRanges(sum.ports, a.ports) };
  }
  return sum;
}
