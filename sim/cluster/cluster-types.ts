import type { TaskLaunch } from '../../src/scheduler/model/launch';
import type { MasterAgent, MasterExecutor } from '../../src/master/master-types';
import type { TaskState } from '../../src/scheduler/model/task-state';

export type { AgentPhase, UnackedUpdate } from '../../src/master/master-types';

/**
 * What the simulated executors read of a launched task: the core's `TaskLaunch` is one, and the
 * wire fake of the tests builds one from a Mesos TaskInfo (no run spec needed).
 */
export type SimLaunch = Pick<
  TaskLaunch,
  'taskId' | 'instanceId' | 'runSpecId' | 'agentId' | 'role' | 'resources' | 'hostPorts' | 'healthCheck' | 'check' | 'killGracePeriodMs'
>;

/** Launch progress of an executor: which status update its tasks sent last. */
export type LaunchPhase = 'pending' | 'staging' | 'starting' | 'running';

/**
 * A simulated executor: a single task (LAUNCH, command executor) or a task group (LAUNCH_GROUP,
 * default executor). The master's record of it (`master`) holds its allocation until it ends.
 */
export interface SimExecutor {
  readonly executorNo: number;
  /** The master's record of the agent (the simulator reads its phase and whether the host is dead). */
  readonly agent: MasterAgent;
  readonly master: MasterExecutor;
  readonly group: boolean;
  readonly tasks: SimTask[];
  phase: LaunchPhase;
  live: number;
  killing: boolean;
  killEndMs?: number;
  stepTimer?: number;
  killTimer?: number;
}

/** One simulated task on its agent: its launch and its state there (what the master learns is in the master model). */
export interface SimTask {
  readonly taskId: string;
  readonly launch: SimLaunch;
  readonly executor: SimExecutor;
  /** State on the agent (the truth). */
  state: TaskState;
  /** Executor's health verdict (undefined until the first result). */
  healthy?: boolean;
  consecutiveFailures: number;
  hadHealthSuccess: boolean;
  runningAtMs?: number;
  lastCheckMs?: number;
  /** `flaky` health model: the check time of the next failure (drawn; undefined = not drawn yet). */
  flakyFailAtMs?: number;
  killedUnhealthy: boolean;
  /** What `taskExit` will do when it fires. */
  exit?: { readonly state: 'TASK_FAILED' | 'TASK_FINISHED'; readonly reason?: string };
  exitTimer?: number;
  healthTimer?: number;
  /** The `checkResult` timer of a task with a `check`: its one result, due at RUNNING + the check's delay. */
  checkTimer?: number;
}

/** A task as the invariant checker sees it (see `SimCluster.liveTasks`). */
export interface LiveTask {
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly runSpecId: string;
  readonly instanceId: string;
}
