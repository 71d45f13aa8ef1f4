import type { Master } from '../../src/master/master';
import type { SimContext } from '../sim-context';
import type { SimExecutor, SimLaunch, SimTask } from './cluster-types';
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
 * The agents' side of the simulated cluster: executors and tasks on the agents, task and health
 * models, and the master model they report to. Internal to `sim/cluster`; `SimCluster` is the
 * facade.
 */
export class ClusterState {
  readonly timings: SimTimings;
  readonly taskKilling: boolean;
  readonly scenarioStartMs: number;
  /** Tasks on the agents whose executor has not ended, launch order. */
  readonly tasks = new Map<string, SimTask>();
  readonly executors = new Map<number, SimExecutor>();
  /** Executors with at least one live task, per agent, launch order. */
  readonly agentExecutors = new Map<string, Set<SimExecutor>>();
  /** Live (non-terminal) tasks per run spec, for model changes. */
  readonly bySpec = new Map<string, Set<SimTask>>();
  readonly violations: string[] = [];
  private readonly taskModels = new Map<string, TaskModel>();
  private readonly healthModels = new Map<string, HealthModel>();
  private masterModel: Master<SimLaunch> | undefined;

  constructor(
    readonly ctx: SimContext,
    options: SimClusterOptions,
  ) {
    this.timings = options.timings;
    this.taskKilling = options.taskKilling;
    this.scenarioStartMs = options.scenarioStartMs ?? ctx.nowMs();
  }

  /** The master the executors report to (set once, right after both are built). */
  get master(): Master<SimLaunch> {
    if (this.masterModel === undefined) throw new Error('the simulated cluster has no master yet');
    return this.masterModel;
  }

  set master(master: Master<SimLaunch>) {
    this.masterModel = master;
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

  /** Record a broken rule of the scheduler's use of the cluster (the invariant checker reports these). */
  violation(message: string): void {
    this.violations.push(`t=${this.ctx.nowMs()} ${message}`);
  }
}
