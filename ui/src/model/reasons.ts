import type { NoMatchReason } from '../../../src/scheduler/model/no-match-reason';

/** What each of Marathon's offer-rejection reasons means to an operator: why an offer did not fit. */
const REASON_TEXT: Readonly<Record<NoMatchReason, string>> = {
  UnfulfilledRole: 'the offer is for another role (role / acceptedResourceRoles)',
  UnfulfilledConstraint: 'the agent does not satisfy a placement constraint',
  NoCorrespondingReservationFound: 'no matching reservation on the agent (resident)',
  AgentMaintenance: 'the agent is in maintenance',
  InsufficientCpus: 'not enough cpus on the agent',
  InsufficientMemory: 'not enough memory on the agent',
  InsufficientDisk: 'not enough disk on the agent',
  InsufficientGpus: 'not enough GPUs on the agent',
  InsufficientPorts: 'the ports asked for are not free on the agent',
  DeclinedScarceResources: 'the agent has GPUs kept for GPU workloads',
};

/** The operator's text of a rejection reason (the reason itself when the UI does not know it). */
export function reasonText(reason: string): string {
  return Object.hasOwn(REASON_TEXT, reason) ? REASON_TEXT[reason as NoMatchReason] : reason;
}
