import type { Condition } from '../../src/scheduler/model/condition';
import type { EventType } from '../../src/scheduler/model/events';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';
import type { Comparison } from './comparison';

/** Counts of one run spec's instances by condition (`total`: all instances), only the keys given. */
export interface InstanceCountCheck {
  readonly runSpecId: string;
  readonly counts: readonly { readonly key: Condition | 'total'; readonly expected: Comparison }[];
}

/** The number of one run spec's instances whose health is `true`. */
export interface HealthyCountCheck {
  readonly runSpecId: string;
  readonly expected: Comparison;
}

/**
 * Placement spread of a run spec's live placed instances over a field: `hostname`/`@hostname`,
 * `@region`, `@zone`, or an attribute name. Each check is optional (at least one is given).
 */
export interface SpreadCheck {
  readonly runSpecId: string;
  readonly field: string;
  /** Number of distinct field values holding at least one instance. */
  readonly values?: Comparison;
  readonly maxPerValue?: number;
  readonly minPerValue?: number;
  /** Largest count minus smallest count over the field's values. */
  readonly maxSkew?: number;
}

/** Every live placed instance of the run spec is on one of these agents. */
export interface OnAgentsCheck {
  readonly runSpecId: string;
  readonly agentIds: readonly string[];
}

/** A scalar an event field is compared with (`===`). */
export type EventFieldValue = string | number | boolean | null;

/** The number of events of a type (matching `where`) emitted at or after `sinceMs`. */
export interface EventCountCheck {
  readonly eventType: EventType;
  readonly where: Readonly<Record<string, EventFieldValue>>;
  /** Virtual ms since the start of the run. */
  readonly sinceMs: number;
  /** All must hold; from `count` (=), `min` (>=) and `max` (<=); `>= 1` when none is given. */
  readonly expected: readonly Comparison[];
}

/** At least one offer was rejected for the run spec with this reason. */
export interface RejectionCheck {
  readonly runSpecId: string;
  readonly reason: NoMatchReason;
}

/** A deployment holding a run spec: whether one runs, and what it waits for. */
export interface DeploymentCheck {
  readonly runSpecId: string;
  readonly running?: boolean;
  readonly unplaced?: Comparison;
  readonly notHealthy?: Comparison;
  readonly toReplace?: Comparison;
  /** Offers were refused for this reason (reported by the deployment's wait status). */
  readonly reason?: NoMatchReason;
}

/** An `expect` step, typed: every section present (empty when the file does not give it), in file order within each. */
export interface Expectation {
  readonly instances: readonly InstanceCountCheck[];
  readonly healthy: readonly HealthyCountCheck[];
  readonly spread: readonly SpreadCheck[];
  readonly onAgents: readonly OnAgentsCheck[];
  readonly events: readonly EventCountCheck[];
  readonly rejections: readonly RejectionCheck[];
  readonly deployments: readonly DeploymentCheck[];
}
