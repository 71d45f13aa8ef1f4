/** Why an offer did not fit a launch request (Marathon's NoOfferMatchReason set, as `/v2/queue` reports them). */
export type NoMatchReason =
  | 'UnfulfilledRole'
  | 'UnfulfilledConstraint'
  | 'NoCorrespondingReservationFound'
  | 'AgentMaintenance'
  | 'InsufficientCpus'
  | 'InsufficientMemory'
  | 'InsufficientDisk'
  | 'InsufficientGpus'
  | 'InsufficientPorts'
  | 'DeclinedScarceResources';

/** In the order Marathon's queue summary lists them (the order a pipeline checks them). */
export const NO_MATCH_REASONS: readonly NoMatchReason[] = [
  'UnfulfilledRole', 'UnfulfilledConstraint', 'NoCorrespondingReservationFound', 'AgentMaintenance',
  'InsufficientCpus', 'InsufficientMemory', 'InsufficientDisk', 'InsufficientGpus', 'InsufficientPorts',
  'DeclinedScarceResources',
];
