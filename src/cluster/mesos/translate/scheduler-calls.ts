import type { Call, Filters, FrameworkInfo, OfferOperation } from '../codec/mesos-model';
import { durationOf } from './kill-policy';
import { uuidToBytes } from './uuid-bytes';

/** Mesos caps refuse filters at 365 days (mesos-v1-scheduler-api.md §2.3). */
const MAX_REFUSE_SECONDS = 31_536_000;

/**
 * `filters.refuse_seconds` from milliseconds. Always stated: an ACCEPT without filters still
 * installs the 5 s default on the leftovers (§2.3); 0 installs none. Negative becomes 0 (Mesos
 * would read a negative value as its 5 s default), and the cap is Mesos's own.
 */
export function refuseFilters(refuseMs: number): Filters {
  return { refuseSeconds: Math.min(MAX_REFUSE_SECONDS, Math.max(0, refuseMs) / 1000) };
}

/** SUBSCRIBE (§2.1, §1.8): the id in both places on a resubscription; `suppressedRoles` always restated. */
export function subscribeCall(info: FrameworkInfo, suppressedRoles: readonly string[]): Call {
  return {
    ...(info.id === undefined ? {} : { frameworkId: info.id }),
    type: 'SUBSCRIBE',
    subscribe: { frameworkInfo: info, suppressedRoles: [...suppressedRoles] },
  };
}

/** ACCEPT of one offer with operations; unused resources come back after `refuseMs` (§2.3). */
export function acceptCall(frameworkId: string, offerId: string, operations: readonly OfferOperation[], refuseMs: number): Call {
  return {
    frameworkId: { value: frameworkId },
    type: 'ACCEPT',
    accept: { offerIds: [{ value: offerId }], operations: [...operations], filters: refuseFilters(refuseMs) },
  };
}

/** DECLINE with a refuse filter (§2.4; Marathon declines for 120 s by default, §7.3). */
export function declineCall(frameworkId: string, offerIds: readonly string[], refuseMs: number): Call {
  return {
    frameworkId: { value: frameworkId },
    type: 'DECLINE',
    decline: { offerIds: offerIds.map((value) => ({ value })), filters: refuseFilters(refuseMs) },
  };
}

/**
 * KILL (§2.8) with `kill_policy.grace_period` overriding the task's for this kill (§7.6: SIGTERM,
 * then SIGKILL after the grace). `agentId` when known (recommended; a wrong one is ignored).
 */
export function killCall(frameworkId: string, taskId: string, agentId: string | undefined, gracePeriodMs: number): Call {
  return {
    frameworkId: { value: frameworkId },
    type: 'KILL',
    kill: {
      taskId: { value: taskId },
      ...(agentId === undefined ? {} : { agentId: { value: agentId } }),
      killPolicy: { gracePeriod: durationOf(gracePeriodMs) },
    },
  };
}

/** ACKNOWLEDGE (§2.10) of an update whose core status carried `uuid` (base64, see uuid-bytes.ts). */
export function acknowledgeCall(frameworkId: string, agentId: string, taskId: string, uuid: string): Call {
  return {
    frameworkId: { value: frameworkId },
    type: 'ACKNOWLEDGE',
    acknowledge: { agentId: { value: agentId }, taskId: { value: taskId }, uuid: uuidToBytes(uuid) },
  };
}

/**
 * RECONCILE (§2.12, §7.2): explicit for the listed tasks (pass agent ids: without one an
 * unreachable task is answered TASK_UNKNOWN), implicit for an empty list — still with an empty
 * `reconcile` message, which Mesos requires (§2.0).
 */
export function reconcileCall(frameworkId: string, tasks: readonly { readonly taskId: string; readonly agentId?: string }[]): Call {
  return {
    frameworkId: { value: frameworkId },
    type: 'RECONCILE',
    reconcile: tasks.length === 0 ? {} : {
      tasks: tasks.map((t) => ({ taskId: { value: t.taskId }, ...(t.agentId === undefined ? {} : { agentId: { value: t.agentId } }) })),
    },
  };
}

/** REVIVE (§2.6): leave suppression and clear decline filters for these roles (empty = every role). */
export function reviveCall(frameworkId: string, roles: readonly string[]): Call {
  return { frameworkId: { value: frameworkId }, type: 'REVIVE', revive: { roles: [...roles] } };
}

/** SUPPRESS (§2.7): no new offers for these roles (empty = every role) until REVIVE or resubscription. */
export function suppressCall(frameworkId: string, roles: readonly string[]): Call {
  return { frameworkId: { value: frameworkId }, type: 'SUPPRESS', suppress: { roles: [...roles] } };
}

/**
 * UPDATE_FRAMEWORK (§2.13): a full replacement of the FrameworkInfo, e.g. after the set of roles
 * changed. `suppressedRoles` is restated because omitting it unsuppresses every role. The
 * FrameworkInfo must carry its id (`Call.framework_id` must equal it): throws otherwise.
 */
export function updateFrameworkCall(info: FrameworkInfo, suppressedRoles: readonly string[]): Call {
  if (info.id === undefined) throw new Error('UPDATE_FRAMEWORK needs a FrameworkInfo with its id');
  return {
    frameworkId: info.id,
    type: 'UPDATE_FRAMEWORK',
    updateFramework: { frameworkInfo: info, suppressedRoles: [...suppressedRoles] },
  };
}
