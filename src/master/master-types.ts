import type { AgentInfo } from '../scheduler/model/agent';
import type { IpAddress } from '../scheduler/model/ip-address';
import type { OfferedPool } from '../scheduler/model/offer';
import type { ScalarResources } from '../scheduler/model/resources';
import type { ReservationOperation } from '../scheduler/model/reservation';
import type { TaskState } from '../scheduler/model/task-state';
import type { CheckStatus } from '../scheduler/model/checks';
import type { TaskStatus } from '../scheduler/model/inputs';
import type { AgentLedger } from './agent-ledger';

/**
 * What the master reads of one task of a launch operation. The core's `TaskLaunch` is one; a
 * cluster's executors may need more of it (the type parameter `T` of the model carries it through
 * to them untouched), the master never does.
 */
export interface MasterTaskLaunch {
  readonly taskId: string;
  readonly agentId: string;
  readonly role: string;
  readonly resources: ScalarResources;
  readonly hostPorts: readonly number[];
}

/**
 * One operation of an ACCEPT: a single task on the command executor (LAUNCH) or a task group on
 * one default executor (LAUNCH_GROUP). `allocation` is exactly what the operation takes from the
 * offer, per pool. The core's `LaunchOperation` is a `MasterOperation<TaskLaunch>`.
 */
export type MasterOperation<T extends MasterTaskLaunch = MasterTaskLaunch> =
  | { readonly kind: 'launch'; readonly task: T; readonly allocation: readonly OfferedPool[] }
  | {
      readonly kind: 'launchGroup';
      readonly executorId: string;
      readonly executorResources: ScalarResources;
      readonly tasks: readonly T[];
      readonly allocation: readonly OfferedPool[];
    };

/** The tasks of an operation (one for LAUNCH, the group for LAUNCH_GROUP). */
export function operationTasks<T extends MasterTaskLaunch>(op: MasterAcceptOperation<T>): readonly T[] {
  if (op.kind === 'launch') return [op.task];
  return op.kind === 'launchGroup' ? op.tasks : NO_TASKS;
}

const NO_TASKS: readonly never[] = [];

/**
 * Any operation of one ACCEPT: a launch, or a reservation operation of a resident instance
 * (RESERVE, CREATE, DESTROY, UNRESERVE; src/scheduler/model/reservation.ts). The core's
 * `OfferOperation` is a `MasterAcceptOperation<TaskLaunch>`.
 */
export type MasterAcceptOperation<T extends MasterTaskLaunch = MasterTaskLaunch> = MasterOperation<T> | ReservationOperation;

/**
 * The executor id of an operation: a task group names its default executor; a single task runs on
 * a command executor whose id is the task id (as in Mesos).
 */
export function operationExecutorId(op: MasterOperation): string {
  return op.kind === 'launch' ? op.task.taskId : op.executorId;
}

/** How the master answers every task of an operation it refuses (no uuid, §7.1). */
export type Refusal = Pick<TaskStatus, 'state' | 'reason'> & { readonly message: string };

/**
 * Where an agent stands with the master:
 * - `connected`: registered and reachable; offered, its updates flow.
 * - `disconnected`: partitioned (or dead) but not yet noticed; no offers, its updates are held by
 *   the agent, kills are remembered (mesos-v1-scheduler-api.md §2.8, §7.4).
 * - `unreachable`: missed its pings; its tasks were reported TASK_UNREACHABLE.
 * - `removed`: gone for good.
 */
export type AgentPhase = 'connected' | 'disconnected' | 'unreachable' | 'removed';

/**
 * An agent as it registers: identity, fault domain and attributes, and its resources as pools
 * (`reservedFor` undefined: unreserved; a role: statically reserved for it). Several pools of one
 * reservation are added up; the unreserved pool always exists (empty when none is given).
 */
export interface MasterAgentSpec {
  readonly info: AgentInfo;
  readonly pools: readonly OfferedPool[];
  /**
   * The addresses a task on this agent's host network has, which the agent reports with each
   * update of its executors (Mesos fills `container_status.network_infos` with the agent's IP for
   * such a task): the local cluster's host address, the simulated host's (sim/cluster/agent-addresses.ts).
   * None when undefined.
   */
  readonly ipAddresses?: readonly IpAddress[];
}

/** A status update an agent could not deliver while disconnected; forwarded in order on reconnect. */
export interface HeldUpdate {
  readonly task: MasterTask;
  readonly state: TaskState;
  readonly reason?: string;
  readonly healthy?: boolean;
  readonly message?: string;
  readonly checkStatus?: CheckStatus;
}

/** One agent as the master books it. Mutated only inside `src/master`; clusters read it. */
export interface MasterAgent {
  readonly agentId: string;
  readonly info: AgentInfo;
  /** {@link MasterAgentSpec.ipAddresses}. */
  readonly ipAddresses: readonly IpAddress[] | undefined;
  readonly ledger: AgentLedger;
  phase: AgentPhase;
  /** The host is gone for good (it will not come back; after the ping timeout it is removed). */
  dead: boolean;
  /** The agent's outstanding offer. */
  offerId?: string;
  /** The agent's refuse filter runs out then (absolute ms); undefined while it has none. */
  filteredUntilMs?: number;
  pingTimer?: number;
  removalTimer?: number;
  /**
   * When the master last marked the agent unreachable (absolute ms): the `unreachable_time` of
   * every TASK_UNREACHABLE about its tasks, reconciliation answers included (§7.2, §7.4). Read
   * only while the agent is `unreachable`.
   */
  unreachableSinceMs?: number;
  /** Tasks the master remembers on this agent (non-terminal, or terminal and unacknowledged), launch order. */
  readonly tasks: Set<MasterTask>;
  held: HeldUpdate[];
  /** Kills that reached the master while the agent was disconnected: taskId → grace period. */
  readonly pendingKills: Map<string, number>;
}

/**
 * An executor on an agent and what it holds: the allocation of its operation, booked in the
 * agent's ledger until the executor is gone (`Master.executorEnded`).
 */
export interface MasterExecutor {
  readonly agent: MasterAgent;
  readonly agentId: string;
  readonly executorId: string;
  readonly group: boolean;
  readonly allocation: readonly OfferedPool[];
  readonly tasks: MasterTask[];
  /** Tasks of the executor not terminal yet (as the executor reported them). */
  live: number;
}

/** One task the master knows: where it runs, what its executor reported, what the framework was told. */
export interface MasterTask {
  readonly taskId: string;
  readonly agent: MasterAgent;
  readonly executor: MasterExecutor;
  /** Latest state on the agent, as its executor reported it (TASK_STAGING from the launch on). */
  state: TaskState;
  /** Latest health verdict the executor reported. */
  healthy: boolean | undefined;
  /** Last state sent to the framework (what reconciliation answers); undefined before the first. */
  sentState: TaskState | undefined;
  /** Last health verdict sent to the framework. */
  sentHealthy: boolean | undefined;
  /** Uuid of the terminal update; its acknowledgement lets the master forget the task. */
  terminalUuid: string | undefined;
  /** Latest check status the executor reported (the task's `check`, §5.5). */
  checkStatus: CheckStatus | undefined;
  /** Last check status sent to the framework (reconciliation answers it, as a Mesos master copies `check_status`). */
  sentCheckStatus: CheckStatus | undefined;
}

/** A reliable update that still waits for the framework's acknowledgement. */
export interface UnackedUpdate {
  readonly uuid: string;
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly postedAtMs: number;
}
