import type { AgentInfo } from '../../src/scheduler/model/agent';
import type { Condition } from '../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';

/** One instance as an expectation sees it. `agent` is set once the instance is placed. */
export interface ObservedInstance {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly condition: Condition;
  readonly healthy: boolean | undefined;
  readonly agent?: AgentInfo;
}

/**
 * What the runner shows the expectation evaluator at one moment of a run. All times are virtual
 * milliseconds since the start of the run (not the virtual epoch).
 */
export interface ScenarioObservation {
  readonly nowMs: number;
  /** The run spec's instances known to the scheduler now (terminal ones included while the scheduler keeps them). */
  instances(runSpecId: string): readonly ObservedInstance[];
  /** Every event emitted so far, in order, each with the virtual ms it was emitted at. */
  readonly events: readonly { readonly atMs: number; readonly event: MarathonEvent }[];
  /** Offer rejections recorded for the run spec so far, by reason. */
  rejections(runSpecId: string): Readonly<Partial<Record<NoMatchReason, number>>>;
  /**
   * Optional: the agents of the cluster now. When given, spread checks count field values that hold
   * no instance as 0 (so `maxSkew`/`minPerValue` see empty zones); otherwise only values holding
   * an instance are counted.
   */
  agents?(): readonly AgentInfo[];
  /**
   * Optional: whether the run spec exists and has a health check (an app's `healthChecks`, a pod
   * container's `healthCheck`); undefined when no run spec has the id. A `healthy` expectation
   * that fails on one without checks says so: its instances' health stays unknown, as in Marathon.
   */
  hasHealthChecks?(runSpecId: string): boolean | undefined;
  /** Optional: the running deployment holding the run spec, and what its action waits for. */
  deployment?(runSpecId: string): ObservedDeployment | undefined;
}

/** What a running deployment's action on one run spec waits for. */
export interface ObservedDeployment {
  readonly deploymentId: string;
  readonly unplaced: number;
  readonly notHealthy: number;
  readonly toReplace: number;
  readonly rejections: Readonly<Partial<Record<NoMatchReason, number>>>;
}
