import type { AgentInfo } from '../scheduler/model/agent';
import type { Instance } from '../scheduler/model/instance';
import type { SchedulerInput, TaskStatus } from '../scheduler/model/inputs';
import type { OfferedPool } from '../scheduler/model/offer';
import { isTerminalTaskState } from '../scheduler/model/task-state';
import { instanceIdOfTask } from '../scheduler/index';
import { addTasksUsage } from './add-usage';

/** The last offer the core was given for one agent, and when, with what the agent got back since. */
export interface LastOffer {
  readonly agent: AgentInfo;
  /**
   * What the agent had free: its last offer's pools, plus what each task that held resources when
   * that offer was made (launched before it) gave back when it ended since.
   */
  readonly pools: readonly OfferedPool[];
  /** The instant the core handled it (epoch ms). */
  readonly atMs: number;
  /**
   * A task on the agent was reported TASK_UNREACHABLE after that offer, and none reported running
   * since: the agent is cut off, and a fork counts nothing free on it (take-fork.ts).
   */
  readonly unreachable?: true;
}

/** The live core's instance of an id (`Scheduler.instance`). */
export type InstanceLookup = (instanceId: string) => Instance | undefined;

/**
 * The last offer seen per agent (issue 18: a what-if fork builds its agents from them): a loop
 * observer (`RealTimeLoop.observe`, the input hook; the simulated run's `onInput`) that remembers,
 * for every agent, the latest offer handed to the core — its identity, attributes and free
 * resources per pool — and forgets an agent when the cluster reports it lost. Read-only to
 * everyone else ({@link all}). Holds one record per agent, so its size is bounded by the cluster.
 *
 * An offer grows stale: pacer suppresses offers while nothing waits, so after a scale-down the
 * agent may not be offered again before a what-if asks. So every status update is looked at before
 * the core handles it: a task that ends, and held resources when the agent's last offer was made,
 * gives its resources back to that agent's record (once: an update for a task already ended gives
 * nothing); a task reported unreachable marks its agent cut off until a task there is reported
 * running again or the agent is offered again. The instances are read through `instanceOf`, the
 * live core's, given when the core exists ({@link readInstancesFrom}); without it only offers and
 * lost agents count.
 */
export class LastOffers {
  private readonly byAgent = new Map<string, LastOffer>();
  private instanceOf: InstanceLookup | undefined;
  /** Records marked cut off: while none is, a running task's update needs no look-up. */
  private cutOff = 0;

  constructor(instanceOf?: InstanceLookup) {
    this.instanceOf = instanceOf;
  }

  /** Reads the live core's instances from now on (the runtime builds this observer before its core). */
  readInstancesFrom(instanceOf: InstanceLookup): void {
    this.instanceOf = instanceOf;
  }

  /** The loop observer hook: called before the core handles `input` at `atMs`. */
  beforeInput(atMs: number, input: SchedulerInput): void {
    if (input.type === 'offers') {
      for (const offer of input.offers) this.put(offer.agent.agentId, { agent: offer.agent, pools: offer.pools, atMs });
    } else if (input.type === 'agentLost') {
      if (this.byAgent.get(input.agentId)?.unreachable === true) this.cutOff--;
      this.byAgent.delete(input.agentId);
    } else if (input.type === 'status') {
      this.noteStatus(input.status);
    }
  }

  /** Every agent's last offer, in agent id order. */
  all(): readonly LastOffer[] {
    return [...this.byAgent.values()].sort((a, b) => (a.agent.agentId < b.agent.agentId ? -1 : a.agent.agentId > b.agent.agentId ? 1 : 0));
  }

  get size(): number {
    return this.byAgent.size;
  }

  /** Sets an agent's record, keeping the count of those cut off. */
  private put(agentId: string, record: LastOffer): void {
    const before = this.byAgent.get(agentId)?.unreachable === true;
    const after = record.unreachable === true;
    if (before !== after) this.cutOff += after ? 1 : -1;
    this.byAgent.set(agentId, record);
  }

  /** What a status update says about its task's agent (see the class comment). */
  private noteStatus(status: TaskStatus): void {
    // Most updates are a task starting or running, and say nothing here: no look-up for them.
    const state = status.state;
    if (state !== 'TASK_UNREACHABLE' && !isTerminalTaskState(state) && !(state === 'TASK_RUNNING' && this.cutOff > 0)) return;
    const inst = this.instanceOf?.(instanceIdOfTask(status.taskId));
    const agentId = inst?.agent?.agentId;
    if (inst === undefined || agentId === undefined) return;
    const last = this.byAgent.get(agentId);
    if (last === undefined) return;
    if (state === 'TASK_UNREACHABLE') {
      if (last.unreachable !== true) this.put(agentId, { ...last, unreachable: true });
      return;
    }
    if (!isTerminalTaskState(state)) {
      if (last.unreachable === true && state === 'TASK_RUNNING') this.put(agentId, { agent: last.agent, pools: last.pools, atMs: last.atMs });
      return;
    }
    const task = inst.peekTasks().find((t) => t.taskId === status.taskId);
    if (task === undefined || (task.state !== undefined && isTerminalTaskState(task.state)) || !(task.launchedAtMs < last.atMs)) return;
    // The plain record only for a task that gives something back (a status update's path).
    this.put(agentId, { ...last, pools: addTasksUsage(last.pools, inst.toJSON(), [task]) });
  }
}
