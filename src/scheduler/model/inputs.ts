import type { Offer } from './offer';
import type { ProbeObservation } from '../ports/prober';
import type { RunSpec } from './run-spec';
import type { Group } from '../groups/group';
import type { GroupUpdate } from '../groups/group-update';
import type { DeploymentPlan } from './deployment-plan';
import type { TaskState } from './task-state';
import type { IpAddress } from './ip-address';
import type { CheckStatus } from './checks';

/** A task status update from the cluster (Mesos TaskStatus, translated). */
export interface TaskStatus {
  readonly taskId: string;
  readonly agentId?: string;
  readonly state: TaskState;
  readonly reason?: string;
  readonly message?: string;
  /** Agent-run health result, when the task has an agent-run check. */
  readonly healthy?: boolean;
  /**
   * The status of the task's Mesos check (its `check`), when the update carries one (Mesos
   * `check_status`; the executors send a TASK_RUNNING with REASON_TASK_CHECK_STATUS_UPDATED
   * whenever it changes, and copy it into their other updates).
   */
  readonly checkStatus?: CheckStatus;
  /** Present when the update must be acknowledged. */
  readonly uuid?: string;
  /**
   * When the cluster marked the task's agent unreachable (epoch ms, the cluster's clock), if it
   * says: the unreachable strategy counts from it rather than from the update's arrival, which can
   * be much later (an update the master made while pacer was disconnected is lost; reconciliation
   * reports it afterwards).
   */
  readonly unreachableSinceMs?: number;
  /**
   * The container's IP addresses (Mesos `container_status.network_infos[].ip_addresses`), when the
   * update carries them; at most `MAX_TASK_IP_ADDRESSES` (model/ip-address.ts).
   */
  readonly ipAddresses?: readonly IpAddress[];
}

/**
 * A change of the root group named by what it means, not by the root it gives (issue 12 R2: only
 * the core edits the root). The core stamps the versions (one new root version, strictly after the
 * current one), applies the tree edit and its rules, and plans the deployment.
 */
export type RootChange =
  /** `PUT/PATCH /v2/apps` with an array (fact 52): each app put in order, one deployment. */
  | { readonly kind: 'putRunSpecs'; readonly specs: readonly RunSpec[] }
  /** `POST/PUT /v2/groups[/{id}]`: a structural group update (fact 70). */
  | { readonly kind: 'updateGroup'; readonly update: GroupUpdate }
  /** `PUT /v2/groups/{id}` with `{"version": v}`: the group as at a stored root version (fact 71). */
  | { readonly kind: 'revertGroup'; readonly groupId: string; readonly version: string }
  /** `PUT /v2/groups/{id}` with `{"scaleBy": f}`: every app below scaled by `factor` (fact 71). */
  | { readonly kind: 'scaleGroup'; readonly groupId: string; readonly factor: number }
  /** `DELETE /v2/groups[/{id}]`: the group with everything in it (fact 75). */
  | { readonly kind: 'removeGroup'; readonly groupId: string };

/** Commands shared by the API and the simulator. */
export type Command =
  | { readonly type: 'putRunSpec'; readonly spec: RunSpec; readonly force?: boolean }
  | { readonly type: 'deleteRunSpec'; readonly runSpecId: string; readonly force?: boolean }
  | { readonly type: 'scale'; readonly runSpecId: string; readonly instances: number; readonly force?: boolean }
  /** `/restart`: replace every instance (a new config version with the same definition). */
  | { readonly type: 'restart'; readonly runSpecId: string; readonly force?: boolean }
  /** A change of the root group the core makes ({@link RootChange}); `force` overrides locks. */
  | { readonly type: 'changeRoot'; readonly change: RootChange; readonly force?: boolean }
  /**
   * `PATCH /v2/groups/{id}`: `enforceRole` of a top-level group (fact 72); left out, the
   * `--new_group_enforce_role` default. The root keeps its version.
   */
  | { readonly type: 'setEnforceRole'; readonly groupId: string; readonly enforceRole?: boolean }
  /** Replace the root group with one built elsewhere (the simulator's `deploy` step, tests): planned and deployed. */
  | { readonly type: 'deploy'; readonly root: Group; readonly force?: boolean }
  /** DELETE /v2/deployments/{id}: roll back, or with `force` just stop. */
  | { readonly type: 'cancelDeployment'; readonly deploymentId: string; readonly force?: boolean }
  | {
      readonly type: 'killInstances';
      readonly runSpecId: string;
      readonly instanceIds: readonly string[];
      /** Also lower the target count (kill-and-scale). */
      readonly scale: boolean;
      /** Forget the instance instead of relaunching it. */
      readonly wipe: boolean;
      /** With `scale`: override the lock of a running deployment. */
      readonly force?: boolean;
    }
  /**
   * `/v2/tasks/delete?scale=true`: kill instances of several run specs and lower each target by
   * the number killed, as ONE deployment (fact 58). `force` overrides the locks.
   */
  | { readonly type: 'killAndScale'; readonly targets: readonly { readonly runSpecId: string; readonly instanceIds: readonly string[] }[]; readonly force?: boolean }
  | { readonly type: 'resetDelay'; readonly runSpecId: string };

/** Inputs from the cluster driver. */
export type ClusterInput =
  | { readonly type: 'offers'; readonly offers: readonly Offer[] }
  | { readonly type: 'rescind'; readonly offerId: string }
  | { readonly type: 'status'; readonly status: TaskStatus }
  | { readonly type: 'agentLost'; readonly agentId: string }
  | { readonly type: 'subscribed'; readonly frameworkId: string }
  | { readonly type: 'disconnected' };

/** Timers the core asks the loop for. `incarnation` guards against timers outliving what set them. */
export type TimerKind =
  | { readonly kind: 'backoffExpired'; readonly runSpecId: string }
  | { readonly kind: 'unreachableInactive'; readonly instanceId: string; readonly incarnation: number }
  | { readonly kind: 'unreachableExpunge'; readonly instanceId: string; readonly incarnation: number }
  | { readonly kind: 'healthProbe'; readonly instanceId: string; readonly incarnation: number; readonly checkIndex: number }
  | { readonly kind: 'killRetry'; readonly instanceId: string; readonly incarnation: number }
  | { readonly kind: 'readinessProbe'; readonly instanceId: string; readonly incarnation: number }
  | { readonly kind: 'reconcile' }
  /** Marathon's periodic scale check (SchedulerOptions.scaleAppsIntervalMs; DeploymentManager.scaleCheck). */
  | { readonly kind: 'scaleCheck' }
  | { readonly kind: 'continueChanges' }
  /** Match the offers an earlier input kept (SchedulerOptions.launchesPerInput; offers/offer-batches.ts). */
  | { readonly kind: 'continueOffers' }
  /** Reconcile the next known tasks (SchedulerOptions.instancesPerInput; reconcile/task-reconciliation.ts). */
  | { readonly kind: 'continueReconcile' };

export type TimerInput = { readonly type: 'timer'; readonly timer: TimerKind };

export type ProbeResultInput = { readonly type: 'probeResult'; readonly observation: ProbeObservation };

/** Everything the core handles, one at a time, in loop order. */
export type SchedulerInput = Command | ClusterInput | TimerInput | ProbeResultInput;

/** Outcome of a command: expected failures are values, never exceptions. */
export type CommandResult =
  | { readonly ok: true; readonly deploymentId?: string; readonly version?: string }
  | {
      readonly ok: false;
      readonly error: CommandError;
      readonly message: string;
      readonly deployments?: readonly string[];
      /** `invalid`: the offending fields, as Marathon's validation `details` (e.g. path `/role`). */
      readonly details?: readonly { readonly path: string; readonly errors: readonly string[] }[];
    };

export type CommandError =
  | 'unknown-run-spec' | 'invalid' | 'locked' | 'too-many-deployments' | 'unknown-deployment'
  /** Marathon's IllegalArgumentException (422 with only a message), e.g. a revert to a version without the group. */
  | 'illegal-argument';

/** What a dry run of a {@link RootChange} gives (`?dryRun=true`): the root it would deploy and its plan. */
export type RootChangePreview =
  | { readonly ok: true; readonly root: Group; readonly plan: DeploymentPlan }
  | Extract<CommandResult, { ok: false }>;
