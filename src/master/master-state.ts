import type { TaskStatus } from '../scheduler/model/inputs';
import { isTerminalTaskState, type TaskState } from '../scheduler/model/task-state';
import type { CheckStatus } from '../scheduler/model/checks';
import { ExecutorBook } from './executor-book';
import type { AgentRuntime, MasterClock, MasterOutbox } from './master-ports';
import type { MasterAgent, MasterExecutor, MasterTask, MasterTaskLaunch } from './master-types';
import { OfferDesk } from './offer-desk';
import { UpdateBook } from './update-book';

/** How a master is set up (every value deterministic, so that a simulated run replays). */
export interface MasterOptions {
  /** Period of allocation rounds (Mesos `--allocation_interval`). */
  readonly offerIntervalMs: number;
  /** Disconnected agent → unreachable (Mesos: `--agent_ping_timeout` × `--max_agent_ping_timeouts`). */
  readonly agentPingTimeoutMs: number;
  /** A dead agent, once unreachable → removed for good. */
  readonly agentRemovalMs: number;
  /** The id of the n-th offer (n from 1). */
  readonly offerId: (n: number) => string;
  /** A fresh uuid for a reliable status update (unique for the framework's lifetime). */
  readonly newUuid: () => string;
  /**
   * A broken rule of the framework's use of the master (an invalid operation, an acknowledgement
   * of an update sent for another task): the simulator's invariant checker reports these.
   */
  readonly onProblem?: (message: string) => void;
}

/**
 * The state shared by the parts of the master model (agents, task table, executor book, offer
 * desk, update book) and the one way an executor's update reaches the framework
 * ({@link deliver}). Internal to `src/master`; `Master` is the facade.
 */
export class MasterState<T extends MasterTaskLaunch> {
  readonly agents = new Map<string, MasterAgent>();
  /** Tasks the master remembers (plus tasks of unreachable agents), launch order. */
  readonly tasks = new Map<string, MasterTask>();
  readonly executors = new ExecutorBook<MasterExecutor>();
  readonly desk: OfferDesk;
  readonly updates: UpdateBook;
  private sortedAgentIds: readonly string[] | undefined;

  constructor(
    readonly clock: MasterClock,
    readonly outbox: MasterOutbox,
    readonly runtime: AgentRuntime<T>,
    readonly options: MasterOptions,
  ) {
    this.desk = new OfferDesk(clock, outbox, options.offerIntervalMs, options.offerId);
    this.updates = new UpdateBook(outbox, options.newUuid);
  }

  /** Ids of the agents not removed, sorted (cached until {@link agentsChanged}). */
  agentIds(): readonly string[] {
    if (this.sortedAgentIds === undefined) {
      const ids: string[] = [];
      for (const a of this.agents.values()) if (a.phase !== 'removed') ids.push(a.agentId);
      this.sortedAgentIds = ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return this.sortedAgentIds;
  }

  /** An agent was added or removed. */
  agentsChanged(): void {
    this.sortedAgentIds = undefined;
  }

  /**
   * An executor-generated update about `task`. A connected agent forwards it now, reliably (with
   * uuid); a disconnected agent holds it until it reconnects; an unreachable agent's updates are
   * replaced by the reregistration re-send (§7.4); a dead host sends nothing.
   */
  deliver(task: MasterTask, state: TaskState, reason?: string, healthy?: boolean, message?: string, checkStatus?: CheckStatus): void {
    const agent = task.agent;
    if (agent.dead) return;
    if (agent.phase === 'connected') this.send(task, state, reason, healthy, true, message, checkStatus);
    else if (agent.phase === 'disconnected') agent.held.push(checkStatus === undefined ? { task, state, reason, healthy, message } : { task, state, reason, healthy, message, checkStatus });
  }

  /** Post an update about a known task now and record what the framework was told. */
  send(task: MasterTask, state: TaskState, reason: string | undefined, healthy: boolean | undefined, reliable: boolean, message?: string, checkStatus?: CheckStatus): void {
    // Field by field in the order the spreads gave (no temporary objects: this runs per update).
    const status: { -readonly [K in keyof TaskStatus]: TaskStatus[K] } = { taskId: task.taskId, agentId: task.agent.agentId, state };
    if (reason !== undefined) status.reason = reason;
    if (healthy !== undefined) status.healthy = healthy;
    if (message !== undefined) status.message = message;
    if (checkStatus !== undefined) status.checkStatus = checkStatus;
    // An executor's update (reliable) carries the container's addresses, as a Mesos agent adds them.
    if (reliable && task.agent.ipAddresses !== undefined) status.ipAddresses = task.agent.ipAddresses;
    const uuid = this.updates.post(this.clock.nowMs(), status, reliable);
    task.sentState = state;
    if (healthy !== undefined) task.sentHealthy = healthy;
    if (checkStatus !== undefined) task.sentCheckStatus = checkStatus;
    if (isTerminalTaskState(state)) {
      task.terminalUuid = uuid;
      // Master-generated terminal updates need no acknowledgement: the master forgets the task now.
      if (uuid === undefined) this.forget(task);
    }
  }

  /** The master forgets a task (terminal update acknowledged, or never to be acknowledged). */
  forget(task: MasterTask): void {
    this.tasks.delete(task.taskId);
    task.agent.tasks.delete(task);
  }

  /** An update the master itself sends about a task it may not know: now + `delayMs`, no uuid. */
  answer(delayMs: number, status: Omit<TaskStatus, 'uuid'>): void {
    this.updates.post(this.clock.nowMs() + delayMs, status, false);
  }

  /** Report a broken rule of the framework's use of the master. */
  problem(message: string): void {
    this.options.onProblem?.(message);
  }
}

/**
 * Whether the master has the task in its task table: not when its agent is unreachable or removed
 * (§7.2: unreachable tasks are not in the table). Tasks on a disconnected agent still are.
 */
export function masterKnows(task: MasterTask): boolean {
  const phase = task.agent.phase;
  return phase === 'connected' || phase === 'disconnected';
}
