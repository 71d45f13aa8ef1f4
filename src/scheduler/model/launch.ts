import type { HealthCheckSpec } from './health-check';
import type { OfferedPool } from './offer';
import type { ScalarResources } from './resources';
import type { PersistentVolume, ReservationOperation } from './reservation';
import type { RunSpec } from './run-spec';

/** One task to launch, with everything a driver needs to build the cluster's task description. */
export interface TaskLaunch {
  readonly taskId: string;
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly runSpecVersion: string;
  /** Pod container name; undefined for apps. */
  readonly containerName?: string;
  readonly agentId: string;
  readonly hostname: string;
  readonly role: string;
  readonly resources: ScalarResources;
  readonly hostPorts: readonly number[];
  /** Agent-run health check with its port resolved, when the task has one. */
  readonly healthCheck?: ResolvedAgentCheck;
  readonly killGracePeriodMs: number;
  /** The persistent volumes of a resident instance, mounted at their `containerPath`. */
  readonly volumes?: readonly PersistentVolume[];
  /** The run spec this task belongs to (drivers read command, env, container from it). */
  readonly spec: RunSpec;
}

export interface ResolvedAgentCheck {
  readonly check: HealthCheckSpec;
  /** Resolved host port, for HTTP/TCP kinds. */
  readonly port?: number;
}

/**
 * Operations of one ACCEPT call: a single task (apps) or a task group on one executor (pods,
 * launched atomically on one agent).
 */
export type LaunchOperation =
  | { readonly kind: 'launch'; readonly task: TaskLaunch; readonly allocation: readonly OfferedPool[] }
  | {
      readonly kind: 'launchGroup';
      readonly executorId: string;
      readonly executorResources: ScalarResources;
      readonly tasks: readonly TaskLaunch[];
      readonly allocation: readonly OfferedPool[];
    };

/**
 * Any operation of one ACCEPT: a launch, or one of the reservation operations of a resident
 * instance (RESERVE, CREATE before its first launch; DESTROY, UNRESERVE when it is forgotten).
 */
export type OfferOperation = LaunchOperation | ReservationOperation;
