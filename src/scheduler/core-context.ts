import type { EventBus } from './events/event-bus';
import type { ClusterDriver } from './ports/cluster-driver';
import type { Clock } from './ports/clock';
import type { Prober } from './ports/prober';
import type { Random } from './ports/random';
import type { Store } from './ports/store';
import type { Timers } from './ports/timers';
import type { SchedulerOptions } from './scheduler-options';
import type { SchedulerState } from './state/scheduler-state';
import type { HealthTracker } from './health/health-tracker';
import type { OfferDemand } from './launch-queue/offer-demand';
import type { DeploymentManager } from './deployments/deployment-manager';
import type { Group } from './groups/group';
import type { GroupResult } from './groups/group-result';
import type { RunSpec } from './model/run-spec';

/** Root-group edits the deployment manager needs (implemented by src/scheduler/groups). */
export interface GroupOps {
  putRunSpec(root: Group, spec: RunSpec, version: string): GroupResult;
  removeRunSpec(root: Group, runSpecId: string, version: string): GroupResult;
  /** A dependency cycle of the tree (`['/a', '/b', '/a']`), or undefined. */
  dependencyCycle(root: Group): readonly string[] | undefined;
}

/** The ports a scheduler is built with. */
export interface SchedulerPorts {
  readonly clock: Clock;
  readonly random: Random;
  readonly timers: Timers;
  readonly driver: ClusterDriver;
  readonly store: Store;
  readonly prober: Prober;
}

/** What every module of the core shares: ports, options, state, bus and the stateful helpers. */
export interface CoreContext extends SchedulerPorts {
  readonly options: SchedulerOptions;
  readonly state: SchedulerState;
  readonly bus: EventBus;
  readonly health: HealthTracker;
  readonly demand: OfferDemand;
  readonly deployments: DeploymentManager;
  readonly groups: GroupOps;
}
