import type { AgentInfo } from './agent';
import type { Condition } from './condition';
import type { OfferedPool } from './offer';
import type { PersistentVolume } from './reservation';
import type { ScalarResources } from './resources';
import type { TaskState } from './task-state';

/**
 * What the scheduler wants of an instance: keep it running; stop it but keep its record
 * (resident reservations); or decommission it (kill and forget).
 */
export type Goal = 'Running' | 'Stopped' | 'Decommissioned';

/** Why the scheduler killed an instance; decides backoff and events once it is terminal. */
export type KillReason = 'scale-down' | 'user' | 'unhealthy' | 'replaced' | 'deleted' | 'pod-sibling' | 'unknown';

export interface Task {
  readonly taskId: string;
  /** Pod container name; undefined for app tasks. */
  readonly containerName?: string;
  /** Last state reported by the cluster; undefined until the first status update. */
  state?: TaskState;
  condition: Condition;
  readonly hostPorts: readonly number[];
  readonly resources: ScalarResources;
  /** Agent-run health as last reported; undefined when unknown. */
  healthy?: boolean;
  readonly launchedAtMs: number;
  startedAtMs?: number;
  lastStatusMs?: number;
  /** Mesos status message of the last update (status_update_event.message). */
  message?: string;
}

/** One scheduled copy of a run spec. An app instance has one task; a pod instance one per container. */
export interface Instance {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
  runSpecVersion: string;
  /**
   * `lastConfigChangeAt` of the definition this incarnation runs (or will run): which config
   * generation it belongs to. Deployments compare it, not the version, because a scale-only
   * change moves the version and a rollback moves it backwards.
   */
  configVersion: string;
  /** Launch attempt number; task ids of apps carry it. Bumped on every relaunch. */
  incarnation: number;
  goal: Goal;
  condition: Condition;
  conditionSinceMs: number;
  role: string;
  /** Placement; undefined while Scheduled. */
  agent?: AgentInfo;
  /** What was taken from which pool of the offer; kept for resident run specs (reservations) only. */
  allocation?: readonly OfferedPool[];
  /**
   * The dynamic reservation and persistent volumes of a resident instance, once its RESERVE and
   * CREATE were sent: it relaunches only on this agent, on this reservation (its offered pool has
   * `reservationId` = this instance's id), and is forgotten only after DESTROY + UNRESERVE.
   */
  reservation?: InstanceReservation;
  tasks: Task[];
  /** Instance health: all checks passing. undefined = unknown (null on the wire). */
  healthy?: boolean;
  /** Readiness of this incarnation (apps with a readiness check): true once a check passed. */
  ready?: boolean;
  /** First time the instance was seen Running in this incarnation. */
  startedAtMs?: number;
  unreachableSinceMs?: number;
  killReason?: KillReason;
  killRequestedAtMs?: number;
}

/** Where a resident instance's resources are reserved, and its volumes (see `Instance.reservation`). */
export interface InstanceReservation {
  readonly agentId: string;
  readonly role: string;
  readonly volumes: readonly PersistentVolume[];
  /**
   * Set from the first launch's RESERVE until something shows the reservation exists (a status
   * from the agent, or the reservation in an offer). Never stored: a recovered reservation counts
   * as made. A first launch that ends without either (dropped, refused by the master) clears the
   * reservation, so the instance is placed afresh instead of waiting for a reservation that may
   * never have been made (on-status.ts).
   */
  readonly unconfirmed?: true;
}

/**
 * An instance's goal and kill reason as they were when the core decided an event about it. The
 * core delivers it with each `instance_changed_event` (EventListener's second argument): the
 * tracker's effects are carried out after the operation that decided them (issue 12, effects
 * out), by which time the instance may have changed again or be gone, so a listener that wants to
 * know why (the decision log, src/runtime/decision-reader.ts) reads it here, not from the live
 * instance.
 */
export interface InstanceAtEvent {
  readonly goal: Goal;
  readonly killReason: KillReason | undefined;
}
