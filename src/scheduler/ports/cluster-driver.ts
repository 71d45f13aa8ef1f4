import type { OfferOperation } from '../model/launch';

/**
 * Outbound port to the cluster (Mesos master, local host, simulator). Every call is
 * fire-and-forget; results come back as inputs (`offers`, `status`, `rescind`, `agentLost`, …)
 * posted to the loop. The shape mirrors the Mesos v1 scheduler calls so that the Mesos driver is a
 * thin translation: accept(LAUNCH / LAUNCH_GROUP), decline with a refuse filter, kill with a grace
 * period, acknowledge, reconcile, revive and suppress per role.
 */
export interface ClusterDriver {
  /**
   * Accept one offer with its operations, applied in order (launches, and for resident instances
   * RESERVE/CREATE before their first launch, DESTROY/UNRESERVE when they are forgotten); unused
   * resources go back with `refuseMs` filter.
   */
  accept(offerId: string, operations: readonly OfferOperation[], refuseMs: number): void;
  /** Decline offers; the cluster should not re-offer those resources for `refuseMs`. */
  decline(offerIds: readonly string[], refuseMs: number): void;
  /** Kill a task: SIGTERM now, SIGKILL once `gracePeriodMs` has passed. */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void;
  /** Acknowledge a status update that carried a uuid. */
  acknowledge(agentId: string, taskId: string, uuid: string): void;
  /** Explicit reconciliation of the listed tasks; an empty list asks for implicit reconciliation. */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void;
  /** Ask for offers again for these roles, clearing refuse filters. */
  revive(roles: readonly string[]): void;
  /** Stop offers for these roles until the next revive. */
  suppress(roles: readonly string[]): void;
  /**
   * The roles the framework must be subscribed to changed (Mesos UPDATE_FRAMEWORK with the new
   * `roles`; spec section 3: an ephemeral service's role change "updates its registration with the
   * resource manager to include the new role"). `roles` is the whole set, sorted: the default role,
   * the roles of the run specs in the root, and the roles live instances still run under (a
   * resident instance keeps its old role, fact 114). The driver starts out subscribed with the
   * default role only; the core calls this whenever the set differs from what it last said,
   * including right after recovering from the store. Optional: drivers without roles ignore it.
   */
  updateFrameworkRoles?(roles: readonly string[]): void;
}
