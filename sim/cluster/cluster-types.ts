import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { TaskLaunch } from '../../src/scheduler/model/launch';
import type { OfferedPool } from '../../src/scheduler/model/offer';
import type { TaskState } from '../../src/scheduler/model/task-state';
import type { AgentLedger } from './agent-ledger';
import type { SimAgentSpec } from './sim-agent-spec';

/**
 * Where an agent stands with the simulated master:
 * - `connected`: registered and reachable; offered, its updates flow.
 * - `disconnected`: partitioned (or dead) but not yet noticed; no offers, updates are held by the
 *   agent, kills are remembered (spec §2.8, §7.4).
 * - `unreachable`: missed its pings; its tasks were reported TASK_UNREACHABLE.
 * - `removed`: gone for good (after `killAgent`).
 */
export type AgentPhase = 'connected' | 'disconnected' | 'unreachable' | 'removed';

/** A status update an agent could not deliver while disconnected; forwarded in order on reconnect. */
export interface HeldUpdate {
  readonly task: SimTask;
  readonly state: TaskState;
  readonly reason?: string;
  readonly healthy?: boolean;
}

/** One simulated agent: its spec, books and connection state. Internal to the simulated cluster. */
export interface SimAgentState {
  readonly spec: SimAgentSpec;
  readonly info: AgentInfo;
  readonly ledger: AgentLedger;
  phase: AgentPhase;
  /** The host is dead (`killAgent`): nothing on it runs any more; it will be removed. */
  dead: boolean;
  offerId?: string;
  filterTimer?: number;
  pingTimer?: number;
  removalTimer?: number;
  /** Tasks the cluster still remembers on this agent (non-terminal, or terminal and unacknowledged), launch order. */
  readonly tasks: Set<SimTask>;
  /** Executors with at least one live task, launch order. */
  readonly executors: Set<SimExecutor>;
  held: HeldUpdate[];
  /** Kills that reached the master while the agent was disconnected: taskId → grace period. */
  readonly pendingKills: Map<string, number>;
}

/** Launch progress of an executor: which status update its tasks sent last. */
export type LaunchPhase = 'pending' | 'staging' | 'starting' | 'running';

/**
 * An executor: a single task (LAUNCH, command executor) or a task group (LAUNCH_GROUP, default
 * executor). It owns the allocation of its operation, freed when its last task ends.
 */
export interface SimExecutor {
  readonly executorNo: number;
  readonly agent: SimAgentState;
  readonly group: boolean;
  readonly tasks: SimTask[];
  readonly allocation: readonly OfferedPool[];
  phase: LaunchPhase;
  live: number;
  killing: boolean;
  killEndMs?: number;
  stepTimer?: number;
  killTimer?: number;
}

/** One simulated task: its launch, its state on the agent, and what the framework was last told. */
export interface SimTask {
  readonly taskId: string;
  readonly launch: TaskLaunch;
  readonly executor: SimExecutor;
  /** State on the agent (the truth). */
  state: TaskState;
  /** Last state sent to the framework (what the master reports on reconciliation). */
  sentState?: TaskState;
  /** Last health verdict sent to the framework. */
  sentHealthy?: boolean;
  /** Uuid of the terminal update; its acknowledgement lets the cluster forget the task. */
  terminalUuid?: string;
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
}

/** A task as the invariant checker sees it (see `SimCluster.liveTasks`). */
export interface LiveTask {
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly runSpecId: string;
  readonly instanceId: string;
}

/** An update that still waits for the framework's acknowledgement. */
export interface UnackedUpdate {
  readonly uuid: string;
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly postedAtMs: number;
}
