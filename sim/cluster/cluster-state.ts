import type { TaskStatus } from '../../src/scheduler/model/inputs';
import { isTerminalTaskState, type TaskState } from '../../src/scheduler/model/task-state';
import type { SimContext } from '../sim-context';
import type { SimAgentState, SimExecutor, SimTask } from './cluster-types';
import { CoreOutbox } from './core-outbox';
import { OfferDesk } from './offer-desk';
import type { HealthModel, SimTimings, TaskModel } from './sim-models';

/** Options of the simulated cluster. */
export interface SimClusterOptions {
  readonly timings: SimTimings;
  /** The framework has the TASK_KILLING_STATE capability: kills first report TASK_KILLING. */
  readonly taskKilling: boolean;
  /** Origin of `failingFrom` / `failingDuring` health models. Default: the virtual time at construction. */
  readonly scenarioStartMs?: number;
}

const RUN_FOREVER: TaskModel = { kind: 'runForever' };
const HEALTHY: HealthModel = { kind: 'healthy' };

/**
 * The shared state of the simulated cluster (agents, tasks, executors, models) and the one way a
 * task's status reaches the framework ({@link deliver}). Internal to `sim/cluster`.
 */
export class ClusterState {
  readonly timings: SimTimings;
  readonly taskKilling: boolean;
  readonly scenarioStartMs: number;
  readonly outbox: CoreOutbox;
  readonly desk: OfferDesk;
  readonly agents = new Map<string, SimAgentState>();
  /** Tasks the master remembers (plus tasks of unreachable agents), launch order. */
  readonly tasks = new Map<string, SimTask>();
  readonly executors = new Map<number, SimExecutor>();
  /** Live (non-terminal) tasks per run spec, for model changes. */
  readonly bySpec = new Map<string, Set<SimTask>>();
  readonly violations: string[] = [];
  private sortedAgentIds: readonly string[] | undefined;
  private readonly taskModels = new Map<string, TaskModel>();
  private readonly healthModels = new Map<string, HealthModel>();

  constructor(
    readonly ctx: SimContext,
    options: SimClusterOptions,
  ) {
    this.timings = options.timings;
    this.taskKilling = options.taskKilling;
    this.scenarioStartMs = options.scenarioStartMs ?? ctx.nowMs();
    this.outbox = new CoreOutbox(ctx);
    this.desk = new OfferDesk(ctx, this.outbox, options.timings.offerIntervalMs);
  }

  /** Ids of the agents not removed, sorted (cached until {@link agentsChanged}). */
  agentIds(): readonly string[] {
    if (this.sortedAgentIds === undefined) {
      const ids: string[] = [];
      for (const a of this.agents.values()) if (a.phase !== 'removed') ids.push(a.spec.agentId);
      this.sortedAgentIds = ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return this.sortedAgentIds;
  }

  /** An agent was added or removed. */
  agentsChanged(): void {
    this.sortedAgentIds = undefined;
  }

  taskModel(runSpecId: string): TaskModel {
    return this.taskModels.get(runSpecId) ?? RUN_FOREVER;
  }

  healthModel(runSpecId: string): HealthModel {
    return this.healthModels.get(runSpecId) ?? HEALTHY;
  }

  setTaskModel(runSpecId: string, model: TaskModel): void {
    this.taskModels.set(runSpecId, model);
  }

  setHealthModel(runSpecId: string, model: HealthModel): void {
    this.healthModels.set(runSpecId, model);
  }

  /** Live tasks of a run spec (launch order). */
  liveOf(runSpecId: string): readonly SimTask[] {
    const set = this.bySpec.get(runSpecId);
    return set === undefined ? [] : [...set];
  }

  addLive(task: SimTask): void {
    let set = this.bySpec.get(task.launch.runSpecId);
    if (set === undefined) {
      set = new Set();
      this.bySpec.set(task.launch.runSpecId, set);
    }
    set.add(task);
  }

  removeLive(task: SimTask): void {
    const set = this.bySpec.get(task.launch.runSpecId);
    if (set === undefined) return;
    set.delete(task);
    if (set.size === 0) this.bySpec.delete(task.launch.runSpecId);
  }

  /**
   * An executor-generated update about `task` (the caller already set `task.state`). A connected
   * agent forwards it now, reliably (with uuid); a disconnected agent holds it until it reconnects;
   * an unreachable agent's updates are replaced by the reregistration re-send (spec §7.4).
   */
  deliver(task: SimTask, state: TaskState, reason?: string, healthy?: boolean): void {
    const agent = task.executor.agent;
    if (agent.dead) return;
    if (agent.phase === 'connected') this.send(task, state, reason, healthy, true);
    else if (agent.phase === 'disconnected') agent.held.push({ task, state, reason, healthy });
  }

  /** Post an update about a known task now and record what the framework was told. */
  send(task: SimTask, state: TaskState, reason: string | undefined, healthy: boolean | undefined, reliable: boolean): void {
    const status: Omit<TaskStatus, 'uuid'> = {
      taskId: task.taskId,
      agentId: task.launch.agentId,
      state,
      ...(reason === undefined ? {} : { reason }),
      ...(healthy === undefined ? {} : { healthy }),
    };
    const uuid = this.outbox.status(this.ctx.nowMs(), status, reliable);
    task.sentState = state;
    if (healthy !== undefined) task.sentHealthy = healthy;
    if (isTerminalTaskState(state)) {
      task.terminalUuid = uuid;
      // Master-generated terminal updates need no acknowledgement: the master forgets the task now.
      if (uuid === undefined) this.forget(task);
    }
  }

  /** The master forgets a task (terminal update acknowledged, or never to be acknowledged). */
  forget(task: SimTask): void {
    this.tasks.delete(task.taskId);
    task.executor.agent.tasks.delete(task);
  }

  /** Record a broken rule of the scheduler's use of the cluster (the invariant checker reports these). */
  violation(message: string): void {
    this.violations.push(`t=${this.ctx.nowMs()} ${message}`);
  }
}
