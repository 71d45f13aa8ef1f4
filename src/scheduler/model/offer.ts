import type { AgentInfo } from './agent';
import type { PortRange } from './resources';
import type { PersistentVolume } from './persistent-volume';

/**
 * One pool of offered resources sharing a reservation: `reservedFor` is undefined for unreserved
 * (`*`) resources and the role name for resources reserved (statically or dynamically) for a role.
 */
export interface OfferedPool {
  readonly reservedFor?: string;
  /**
   * Set on a dynamic reservation of one resident instance (its instance id, from the reservation's
   * labels): only that instance may launch on it, and only its own operations release it.
   */
  readonly reservationId?: string;
  /** Persistent volumes created on this reservation's disk (only with `reservationId`). */
  readonly volumes?: readonly PersistentVolume[];
  readonly cpusMilli: number;
  readonly memMilli: number;
  readonly diskMilli: number;
  readonly gpus: number;
  readonly ports: readonly PortRange[];
}

/**
 * A planned maintenance window of an offer's agent (Mesos `Offer.unavailability`), in ms since the
 * epoch on the master's clock: it starts at `startMs` and lasts `durationMs`, or forever when
 * `durationMs` is undefined.
 */
export interface Unavailability {
  readonly startMs: number;
  readonly durationMs?: number;
}

/**
 * A resource offer. `allocationRole` is the role the offer was allocated to (Mesos MULTI_ROLE);
 * when set, only run specs of that role can use it. The simulator leaves it unset.
 * `unavailability` is the agent's maintenance window, when the master has scheduled one (only
 * the Mesos cluster sets it; the matcher's maintenance rule reads it: matcher/maintenance.ts).
 */
export interface Offer {
  readonly offerId: string;
  readonly agent: AgentInfo;
  readonly pools: readonly OfferedPool[];
  readonly allocationRole?: string;
  readonly unavailability?: Unavailability;
}
